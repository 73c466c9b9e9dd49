// sieve-cli migrate: brings a corpus made by an earlier Sieve to the current schema version.
#include "core/cli/commands.h"
#include "core/db/corpus.h"

#include <ostream>

namespace sieve::cli {

namespace {

int runMigrate(const Args &args, Context &ctx)
{
    if (args.positional.size() != 1)
        throw UsageError("expected exactly one argument: the corpus file");
    const std::string &path = args.positional[0];
    int before = 0;
    {
        Corpus c = Corpus::open(path, true, true);
        before = c.schemaVersion();
    }
    if (before == Corpus::kSchemaVersion) {
        ctx.out << path << " is at schema version " << before << " already\n";
        return Ok;
    }
    Corpus c = Corpus::open(path);
    ctx.out << "migrated " << path << " from schema version " << before << " to " << c.schemaVersion() << "\n";
    return Ok;
}

} // namespace

Command migrateCommand()
{
    return {.name = "migrate",
            .summary = "bring a corpus made by an earlier Sieve to the current schema",
            .usage = "sieve-cli migrate DB",
            .description =
                "Migrates DB to the current schema version in one transaction (the\n"
                "steps are cumulative; the data stays). Commands that only read a corpus (list, stats, export,\n"
                "verify --dry-run) refuse an older file until it is migrated; those that write migrate it\n"
                "themselves. A file at the current version is left as it is.\n",
            .run = runMigrate};
}

} // namespace sieve::cli
