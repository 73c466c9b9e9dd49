// sieve-cli review: record accept/reject/clear decisions from scripts and notebooks, into the same
// history the workbench writes (core/review/review.h).
#include "core/review/review.h"
#include "core/cli/commands.h"
#include "core/db/corpus.h"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <ostream>

namespace sieve::cli {

namespace {
int runReview(const Args &args, Context &ctx)
{
    if (args.positional.size() < 2)
        throw UsageError("expected the corpus file and at least one sample (id or name)");
    const int chosen = int(args.has("accept")) + int(args.has("reject")) + int(args.has("clear"));
    if (chosen != 1)
        throw UsageError("give exactly one of --accept, --reject, --clear");
    ReviewInput input;
    input.decision = args.has("accept")   ? ReviewDecision::Accept
                     : args.has("reject") ? ReviewDecision::Reject
                                          : ReviewDecision::Clear;
    input.reason = args.value("reason");
    input.note = args.value("note");
    input.reviewer = args.value("reviewer");
    if (!input.reviewer) {
        const char *user = std::getenv("USER");
        input.reviewer = user && *user ? std::string(user) : std::string("cli");
    }
    Corpus c = Corpus::open(args.positional[0]);
    std::vector<std::int64_t> ids;
    for (std::size_t i = 1; i < args.positional.size(); ++i)
        ids.push_back(resolveSample(c.db(), args.positional[i]));
    const auto recorded = recordReviews(c.db(), ids, input);
    for (const RecordedReview &r : recorded) {
        if (args.has("json"))
            ctx.out << nlohmann::json{{"sample_id", r.sampleId},
                                      {"review_id", r.reviewId},
                                      {"previous", r.previous},
                                      {"review", r.current}}
                           .dump()
                    << '\n';
        else
            ctx.out << "sample " << r.sampleId << ": " << r.previous << " -> " << r.current << '\n';
    }
    return Ok;
}
} // namespace

Command reviewCommand()
{
    return {.name = "review",
            .summary = "accept, reject or clear samples (kept as a history)",
            .usage = "sieve-cli review DB SAMPLE... --accept|--reject|--clear [--reason R] [--note TEXT]\n"
                     "  [--reviewer NAME] [--json]",
            .description =
                "Records a review decision for each SAMPLE (its numeric id or its name) in the append-only\n"
                "reviews table and sets the sample's current review, all in one transaction. --clear returns\n"
                "a sample to unreviewed. Rejected samples are never exported.\n",
            .options =
                {{.name = "accept", .help = "accept the samples"},
                 {.name = "reject", .help = "reject them"},
                 {.name = "clear", .help = "return them to unreviewed"},
                 {.name = "reason",
                  .takesValue = true,
                  .valueName = "R",
                  .help = "a short reason code (e.g. wrong-algorithm, style, sham)"},
                 {.name = "note", .takesValue = true, .valueName = "TEXT", .help = "free text kept with the decision"},
                 {.name = "reviewer", .takesValue = true, .valueName = "NAME", .help = "who decided (default: $USER)"},
                 {.name = "json", .help = "one JSON line per sample: sample_id, review_id, previous, review"}},
            .run = runReview};
}

} // namespace sieve::cli
