#pragma once
// Rows as the trainer sees them: each row's messages rendered with a tokenizer's chat template and
// tokenized by the tokenizers library, in a helper process (resources/tools/sieve_chat_render.py, run
// with Sieve's Python). Jinja is Python's: chat templates use most of it (loops, namespaces, filters,
// macros), and transformers renders them with jinja2, so a C++ subset would drift from what trainers
// render; the helper uses the same sandboxed environment transformers does. The template is data, not
// code Sieve trusts: Jinja's immutable sandbox runs it.
#include <nlohmann/json.hpp>

#include <string>
#include <sys/types.h>

namespace sieve {

enum class ChatRows { Text, Tokens };
const char *chatRowsName(ChatRows r);

class ChatRenderer
{
public:
    // Starts the helper with the tokenizer_config.json (its chat_template and special tokens) and the
    // tokenizer.json; throws std::runtime_error naming the file and field it rejects.
    ChatRenderer(const std::string &configPath, const std::string &tokenizerPath, ChatRows rows);
    ~ChatRenderer();
    ChatRenderer(const ChatRenderer &) = delete;
    ChatRenderer &operator=(const ChatRenderer &) = delete;

    struct Row
    {
        std::size_t tokens = 0;
        std::string fields; // JSON members: "text":..,"assistant_spans":.. or "input_ids":..,"labels":..,..
    };
    // One row from its messages as JSON text ([{"role":..,"content":..}, ..], the assistant's last);
    // throws std::runtime_error with the template's or the tokenizer's message.
    Row render(std::string_view messagesJson);
    const std::string &description() const { return m_description; }

private:
    void stop();
    std::string readLine();
    void writeAll(std::string_view data);
    pid_t m_pid = -1;
    int m_fd = -1;
    std::string m_buffer;
    std::string m_description;
};

} // namespace sieve
