// sieve-cli select: a dry run of a selection recipe, the distribution it keeps.
#include "core/cli/commands.h"
#include "core/cli/selectcommon.h"
#include "core/db/corpus.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace sieve::cli {

namespace {

int runSelect(const Args &args, Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    const SelectionOptions o = selectionFromArgs(args);
    Corpus c = Corpus::open(args.positional[0], true);
    const nlohmann::json s = selectionSummary(selectSamples(c.db(), o));
    if (args.has("json"))
        ctx.out << s.dump(2) << '\n';
    else
        printSelection(ctx.out, s);
    return Ok;
}

} // namespace

Command selectCommand()
{
    std::vector<OptionSpec> options = selectionOptions();
    options.push_back({.name = "json", .help = "the distribution as JSON", .section = "Output:"});
    return {.name = "select",
            .summary = "dry run of a selection recipe: the resulting distribution",
            .usage = "sieve-cli select DB [selection options] [--json]",
            .description = "Prints the tasks and samples a selection keeps, per difficulty, level, category,\n"
                           "backend and teacher model, and why the rest was left out. Nothing is stored:\n"
                           "'sieve-cli export' stores the selection it writes.\n",
            .options = options,
            .run = runSelect};
}

} // namespace sieve::cli
