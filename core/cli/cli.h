#pragma once
// The sieve-cli command framework: every command has a name, a one-line summary, a full --help text
// and a run function. Each layer has one file per command in its cli/ folder and a registry listing them
// (core/cli/commands.h, gpu/cli/commands.h, net/cli/commands.h); app/cli_main.cpp composes them and
// dispatches.
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

struct OptionSpec
{
    std::string name; // long name without dashes, e.g. "format"
    bool takesValue = false;
    bool repeatable = false;
    char shortName = 0;
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

struct Command
{
    std::string name;
    std::string summary;
    std::string help; // full text printed by --help
    std::vector<OptionSpec> options;
    int (*run)(const Args &args, Context &ctx) = nullptr;
};

// Runs argv[1] as a command from `commands`; handles --help, --version and errors.
int dispatch(const std::vector<Command> &commands, int argc, char **argv, std::ostream &out, std::ostream &err);

// Set by SIGINT/SIGTERM once installInterruptHandler() has run; long commands poll it.
bool interrupted();
void installInterruptHandler();

} // namespace sieve::cli
