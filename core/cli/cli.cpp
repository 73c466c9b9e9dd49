#include "core/cli/cli.h"

#include "core/db/corpusfile.h"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace sieve::cli {

namespace {
std::atomic<bool> g_interrupted{false};
extern "C" void onSignal(int)
{
    g_interrupted.store(true);
}
} // namespace

bool interrupted()
{
    return g_interrupted.load();
}

void installInterruptHandler()
{
    struct sigaction sa
    {
    };
    sa.sa_handler = onSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

std::optional<std::string> Args::value(const std::string &name) const
{
    auto it = values.find(name);
    if (it == values.end() || it->second.empty())
        return std::nullopt;
    return it->second.back();
}

std::string Args::value(const std::string &name, const std::string &fallback) const
{
    return value(name).value_or(fallback);
}

const std::vector<std::string> &Args::all(const std::string &name) const
{
    static const std::vector<std::string> none;
    auto it = values.find(name);
    return it == values.end() ? none : it->second;
}

std::optional<long long> Args::integer(const std::string &name) const
{
    const auto v = value(name);
    if (!v)
        return std::nullopt;
    size_t used = 0;
    long long n = 0;
    try {
        n = std::stoll(*v, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used != v->size() || v->empty())
        throw UsageError("--" + name + " expects an integer, got '" + *v + "'");
    return n;
}

std::optional<double> Args::number(const std::string &name) const
{
    const auto v = value(name);
    if (!v)
        return std::nullopt;
    size_t used = 0;
    double n = 0;
    try {
        n = std::stod(*v, &used);
    } catch (const std::exception &) {
        used = 0;
    }
    if (used != v->size() || v->empty())
        throw UsageError("--" + name + " expects a number, got '" + *v + "'");
    return n;
}

namespace {

std::string joinChoices(const std::vector<std::string> &choices)
{
    std::string out;
    for (const std::string &c : choices)
        out += (out.empty() ? "" : ", ") + c;
    return out;
}

void checkChoice(const OptionSpec &spec, const std::string &value)
{
    if (spec.choices.empty())
        return;
    std::vector<std::string> items;
    if (spec.listSeparator) {
        std::string item;
        std::istringstream in(value);
        while (std::getline(in, item, spec.listSeparator))
            items.push_back(item);
        if (items.empty())
            items.push_back(value);
    } else {
        items.push_back(value);
    }
    for (const std::string &item : items)
        if (std::find(spec.choices.begin(), spec.choices.end(), item) == spec.choices.end())
            throw UsageError("--" + spec.name + " takes " + (spec.listSeparator ? "a list of " : "one of ") +
                             joinChoices(spec.choices) + "; not '" + item + "'");
}

} // namespace

Args parse(const std::vector<std::string> &argv, const std::vector<OptionSpec> &specs)
{
    Args args;
    auto find = [&](const std::string &name) -> const OptionSpec * {
        for (const auto &s : specs)
            if (s.name == name)
                return &s;
        return nullptr;
    };
    auto findShort = [&](char c) -> const OptionSpec * {
        for (const auto &s : specs)
            if (s.shortName == c)
                return &s;
        return nullptr;
    };
    bool onlyPositional = false;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string &a = argv[i];
        if (onlyPositional || a.size() < 2 || a[0] != '-') {
            args.positional.push_back(a);
            continue;
        }
        if (a == "--") {
            onlyPositional = true;
            continue;
        }
        const OptionSpec *spec = nullptr;
        std::optional<std::string> inlineValue;
        if (a.rfind("--", 0) == 0) {
            std::string name = a.substr(2);
            if (auto eq = name.find('='); eq != std::string::npos) {
                inlineValue = name.substr(eq + 1);
                name = name.substr(0, eq);
            }
            spec = find(name);
            if (!spec)
                throw UsageError("unknown option --" + name);
        } else {
            if (a.size() != 2)
                throw UsageError("unknown option " + a);
            spec = findShort(a[1]);
            if (!spec)
                throw UsageError("unknown option " + a);
        }
        if (!spec->takesValue) {
            if (inlineValue)
                throw UsageError("--" + spec->name + " takes no value");
            args.flags.insert(spec->name);
            continue;
        }
        std::string v;
        if (inlineValue) {
            v = *inlineValue;
        } else {
            if (i + 1 >= argv.size())
                throw UsageError("--" + spec->name + " needs a value");
            v = argv[++i];
        }
        checkChoice(*spec, v);
        auto &slot = args.values[spec->name];
        if (!spec->repeatable && !slot.empty())
            throw UsageError("--" + spec->name + " given twice");
        slot.push_back(v);
    }
    return args;
}

namespace {

constexpr std::size_t kHelpWidth = 100; // the options table wraps its descriptions to this many columns
constexpr std::size_t kMaxLabel = 24;   // a longer "-s, --name VALUE" gets a line of its own

std::string endLine(std::string text)
{
    if (!text.empty() && text.back() != '\n')
        text += '\n';
    return text;
}

std::string optionLabel(const OptionSpec &o)
{
    std::string label;
    if (o.shortName && o.name == std::string(1, o.shortName))
        label = std::string("-") + o.shortName; // a one-letter option: "-k K" (--k works too)
    else if (o.shortName)
        label = std::string("-") + o.shortName + ", --" + o.name;
    else
        label = "--" + o.name;
    if (!o.valueName.empty())
        label += " " + o.valueName;
    return label;
}

// Appends `text` to `out` word-wrapped to `width` columns, the lines after the first indented by `indent`
// (the first continues the line `out` ends with, at that column); '\n' in `text` starts a new line.
void appendWrapped(std::string &out, const std::string &text, std::size_t indent, std::size_t width)
{
    const std::size_t room = width > indent ? width - indent : 1;
    std::istringstream lines(text);
    std::string line;
    bool firstLine = true;
    while (std::getline(lines, line)) {
        if (!firstLine)
            out += '\n' + std::string(indent, ' ');
        firstLine = false;
        std::istringstream words(line);
        std::string word;
        std::size_t used = 0;
        while (words >> word) {
            if (used > 0 && used + 1 + word.size() > room) {
                out += '\n' + std::string(indent, ' ');
                used = 0;
            }
            if (used > 0) {
                out += ' ';
                ++used;
            }
            out += word;
            used += word.size();
        }
    }
}

// "  --name VALUE   help" rows, aligned in one column for the command, under their sections' headings.
std::string optionsTable(const std::vector<OptionSpec> &options)
{
    std::size_t labelWidth = 0;
    for (const auto &o : options)
        if (!o.help.empty() && optionLabel(o).size() <= kMaxLabel)
            labelWidth = std::max(labelWidth, optionLabel(o).size());
    const std::size_t column = 2 + labelWidth + 2;
    std::string out, section;
    for (const auto &o : options) {
        if (!o.section.empty())
            section = o.section;
        if (o.help.empty())
            continue; // hidden: parse() takes it, --help does not list it
        if (!section.empty()) {
            out += (out.empty() ? "" : "\n") + endLine(section);
            section.clear();
        }
        const std::string label = optionLabel(o);
        out += "  " + label;
        if (label.size() > labelWidth)
            out += '\n' + std::string(column, ' ');
        else
            out += std::string(column - 2 - label.size(), ' ');
        appendWrapped(out, o.help, column, kHelpWidth);
        if (!o.choices.empty()) {
            out += '\n' + std::string(column, ' ');
            appendWrapped(out, std::string(o.listSeparator ? "any of: " : "one of: ") + joinChoices(o.choices), column,
                          kHelpWidth);
        }
        out += '\n';
    }
    return out;
}

void printOverview(const std::vector<Command> &commands, std::ostream &out)
{
    out << "Usage: sieve-cli COMMAND [OPTIONS] [ARGS]\n\n"
           "Curate SFT corpora of GPU kernels: import, verify, dedup, select and export.\n\n"
           "Commands:\n";
    std::size_t width = 12; // the names' column: the longest name, two spaces before the summary
    for (const auto &c : commands)
        width = std::max(width, c.name.size());
    for (const auto &c : commands)
        out << "  " << c.name << std::string(width + 2 - c.name.size(), ' ') << c.summary << '\n';
    out << "\nRun 'sieve-cli COMMAND --help' for a command's options.\n"
           "Exit codes: 0 ok, 1 failure, 2 usage error, 3 some input records rejected, "
           "130 interrupted (resumable).\n";
}
} // namespace

Command withGlobalOptions(const Command &command)
{
    Command c = command;
    c.options.push_back(
        {.name = "check",
         .help = "check the whole corpus file first (SQLite's integrity_check; seconds for a large corpus) and stop "
                 "if it is damaged. Without it every command checks the file's header and table roots, and a "
                 "command that writes also every page (quick_check)",
         .section = "Every command:"});
    return c;
}

std::string helpText(const Command &command)
{
    std::string out;
    std::istringstream usage(command.usage);
    std::string line;
    for (bool first = true; std::getline(usage, line); first = false)
        out += (first ? "Usage: " : "       ") + line + '\n';
    if (!command.description.empty())
        out += '\n' + endLine(command.description);
    if (const std::string table = optionsTable(command.options); !table.empty())
        out += '\n' + table;
    if (!command.notes.empty())
        out += '\n' + endLine(command.notes);
    return out;
}

int dispatch(const std::vector<Command> &commands, int argc, char **argv, std::ostream &out, std::ostream &err)
{
    if (argc < 2) {
        printOverview(commands, err);
        return Usage;
    }
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        printOverview(commands, out);
        return Ok;
    }
    if (name == "--version") {
        out << "sieve-cli " << SIEVE_VERSION << '\n';
        return Ok;
    }
    const Command *cmd = nullptr;
    for (const auto &c : commands)
        if (c.name == name)
            cmd = &c;
    if (!cmd) {
        err << "sieve-cli: unknown command '" << name << "'\n";
        printOverview(commands, err);
        return Usage;
    }
    std::vector<std::string> rest(argv + 2, argv + argc);
    const Command withCheck = withGlobalOptions(*cmd);
    for (const auto &a : rest) {
        if (a == "--help" || a == "-h") {
            out << helpText(withCheck);
            return Ok;
        }
        if (a == "--")
            break;
    }
    Context ctx{out, err};
    try {
        Args args = parse(rest, withCheck.options);
        if (args.flags.erase("check"))
            corpusfile::setFullCheck(true);
        return cmd->run(args, ctx);
    } catch (const UsageError &e) {
        err << "sieve-cli " << name << ": " << e.what() << "\n(see 'sieve-cli " << name << " --help')\n";
        return Usage;
    } catch (const std::exception &e) {
        err << "sieve-cli " << name << ": " << e.what() << '\n';
        return Failure;
    }
}

} // namespace sieve::cli
