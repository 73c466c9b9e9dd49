// Counts the tokens of an export's rows with Sieve's tokenizer exactly as count_python.py does with the
// `tokenizers` library (every text field of every row, each encoded alone, prompts included on every
// row), timing only the counting: the like-for-like half of the ratio.
// Build: see run.sh (links build/dev/core/libsieve_core.a).
#include "core/tokenizer/tokenizer.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::cerr << "usage: count_cpp OUT_DIR TOKENIZER_JSON\n";
        return 2;
    }
    const sieve::Tokenizer tok = sieve::Tokenizer::fromFile(argv[2]);
    std::vector<std::string> texts;
    std::size_t rows = 0, bytes = 0;
    for (const char *split : {"train", "validation"}) {
        std::ifstream in(std::string(argv[1]) + "/" + split + ".jsonl");
        std::string line;
        while (std::getline(in, line)) {
            ++rows;
            const auto row = nlohmann::json::parse(line);
            auto add = [&](const nlohmann::json &v) {
                texts.push_back(v.get<std::string>());
                bytes += texts.back().size();
            };
            if (row.contains("messages")) {
                for (const auto &m : row["messages"]) {
                    add(m["content"]);
                    if (m.contains("reasoning_content"))
                        add(m["reasoning_content"]);
                }
            } else {
                add(row["prompt"]);
                add(row["completion"]);
                if (row.contains("reasoning_content"))
                    add(row["reasoning_content"]);
            }
        }
    }
    const auto w0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    std::size_t tokens = 0;
    for (const std::string &t : texts)
        tokens += tok.count(t);
    const double cpu = double(std::clock() - c0) / CLOCKS_PER_SEC;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    std::cout << nlohmann::json{{"rows", rows},
                                {"texts", texts.size()},
                                {"bytes", bytes},
                                {"tokens_sieve_count", tokens},
                                {"count_wall_s", wall},
                                {"count_cpu_s", cpu},
                                {"MB_per_cpu_s", bytes / 1e6 / cpu}}
                     .dump()
              << '\n';
}
