// sieve-cli init: creates an empty corpus at the current schema version.
#include "core/cli/commands.h"
#include "core/db/corpus.h"

#include <ostream>

namespace sieve::cli {

namespace {

int runInit(const Args &args, Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    Corpus c = Corpus::create(args.positional[0]);
    ctx.out << "created " << c.path() << " (schema version " << c.schemaVersion() << ")\n";
    return Ok;
}

} // namespace

Command initCommand()
{
    return {.name = "init",
            .summary = "create an empty corpus file",
            .usage = "sieve-cli init DB",
            .description = "Creates DB, an empty corpus at the current schema version.\n"
                           "Fails if DB already exists.\n",
            .run = runInit};
}

} // namespace sieve::cli
