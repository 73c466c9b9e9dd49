#pragma once
// The sieve-cli command framework: every command has a name, a one-line summary, the parts of its --help
// (its options described in their specs) and a run function. Each layer has one file per command in its
// cli/ folder and a registry that lists them (core/cli/commands.h, gpu/cli/commands.h, net/cli/commands.h);
// app/cli_main.cpp composes them and dispatches.
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace sieve::cli {

// Documented in README.md ("Exit codes"); scripts depend on these values.
enum ExitCode : int {
    Ok = 0,
    Failure = 1,       // the command could not do its work (I/O, database, verifier failure)
    Usage = 2,         // bad command line
    PartialInput = 3,  // finished, but some input records were rejected (listed in the report)
    Interrupted = 130, // stopped by SIGINT/SIGTERM; the work done so far is saved and resumable
};

// One option of a command: how parse() reads it and how --help lists it. Written with designated
// initialisers, e.g. {.name = "limit", .takesValue = true, .valueName = "N", .help = "at most N rows"}.
struct OptionSpec
{
    std::string name; // long name without dashes, e.g. "format"
    bool takesValue = false;
    bool repeatable = false;
    char shortName = 0;
    std::string valueName; // shown after the name in --help, e.g. "N", "FILE" (options that take a value)
    // The description in --help, wrapped to the width of the options table; '\n' starts a new line. An
    // option without one is not listed (hidden or internal options), but parse() takes it all the same.
    std::string help;
    // A heading that --help prints before this option (lines after the first: text under the heading);
    // the options that follow belong to it until the next option with a section.
    std::string section;
    // The values the option takes, when they are a fixed set: parse() rejects any other (a usage error
    // naming them) and --help lists them after the description.
    std::vector<std::string> choices;
    // With choices: the value is a list of choices joined by this character (e.g. ',').
    char listSeparator = 0;
};

class Args
{
public:
    std::vector<std::string> positional;
    std::map<std::string, std::vector<std::string>> values;
    std::set<std::string> flags;

    bool has(const std::string &name) const { return flags.count(name) || values.count(name); }
    std::optional<std::string> value(const std::string &name) const;
    std::string value(const std::string &name, const std::string &fallback) const;
    const std::vector<std::string> &all(const std::string &name) const;
    // Numeric getters throw UsageError naming the option.
    std::optional<long long> integer(const std::string &name) const;
    std::optional<double> number(const std::string &name) const;
};

struct UsageError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

// Parses argv (after the command name). Unknown options and missing values throw UsageError.
Args parse(const std::vector<std::string> &argv, const std::vector<OptionSpec> &specs);

struct Context
{
    std::ostream &out;
    std::ostream &err;
};

// A command, written with designated initialisers. Its --help is helpText(): the usage, the description,
// the options table made from the options' specs, then the notes.
struct Command
{
    std::string name;
    std::string summary; // one line in the overview of `sieve-cli --help`
    // The usage line(s) without "Usage: "; further lines (another form of the command, or a continuation
    // that starts with two spaces) are printed aligned under the first.
    std::string usage;
    std::string description; // paragraph(s) between the usage and the options
    std::vector<OptionSpec> options;
    std::string notes; // text after the options: examples, exit codes...
    int (*run)(const Args &args, Context &ctx) = nullptr;
};

// `command` with the options every command takes (--check: core/db/corpusfile.h), as dispatch() runs it.
Command withGlobalOptions(const Command &command);

// The full text that `sieve-cli COMMAND --help` prints.
std::string helpText(const Command &command);

// Runs argv[1] as a command from `commands`; handles --help, --version and errors.
int dispatch(const std::vector<Command> &commands, int argc, char **argv, std::ostream &out, std::ostream &err);

// Set by SIGINT/SIGTERM once installInterruptHandler() has run; long commands poll it.
bool interrupted();
void installInterruptHandler();

} // namespace sieve::cli
