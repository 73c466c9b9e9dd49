// The payload codecs side by side on the import benchmark's own kernels: zstd (level -1, the codec of
// payloads written one at a time and of `import --compression zstd`) against LZ4 (an import's default),
// both with a dictionary trained on the first 1,000 texts the way a large import trains one, and both
// without. Same texts, same process, one after the other, three rounds; prints the median per codec.
//   g++ -O2 -std=c++20 -I. bench/import/codecs.cpp build/dev/core/libsieve_core.a \
//       -lsimdjson -lxxhash -lzstd -llz4 -lcrypto -o /tmp/sieve_codecs
//   /tmp/sieve_codecs /tmp/sieve-bench-import/samples.jsonl [ROWS]
#include "core/db/payload.h"

#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace sieve;

namespace {
double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}
} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s SAMPLES.jsonl [ROWS]\n", argv[0]);
        return 2;
    }
    const std::size_t rows = argc > 2 ? std::stoul(argv[2]) : 20000;
    std::vector<std::string> texts;
    {
        std::ifstream in(argv[1]);
        simdjson::dom::parser parser;
        std::string line;
        while (texts.size() < rows && std::getline(in, line)) {
            std::string_view code;
            if (!parser.parse(line)["code"].get(code))
                texts.emplace_back(code);
        }
    }
    std::size_t bytes = 0;
    for (const auto &t : texts)
        bytes += t.size();
    const std::vector<std::string_view> training(texts.begin(),
                                                 texts.begin() + std::min<std::size_t>(1000, texts.size()));
    const std::string dict = payload::trainDictionary(training);
    payload::registerDictionary(dict);
    const std::uint32_t id = payload::dictionaryId(dict);
    std::printf("%zu texts, %.1f MB, dictionary %zu bytes\n", texts.size(), bytes / 1e6, dict.size());
    std::printf("%-22s %14s %16s %10s\n", "codec", "pack us/text", "unpack us/text", "ratio");

    struct Case
    {
        const char *name;
        payload::Codec codec;
        std::uint32_t dictionary;
    };
    const Case cases[] = {{"zstd -1 + dictionary", payload::Codec::Zstd, id},
                          {"lz4 + dictionary", payload::Codec::Lz4, id},
                          {"zstd -1", payload::Codec::Zstd, 0},
                          {"lz4", payload::Codec::Lz4, 0}};
    std::vector<std::string> packed(texts.size());
    std::string out;
    for (const Case &c : cases) {
        std::vector<double> packUs, unpackUs;
        std::size_t packedBytes = 0;
        for (int round = 0; round < 3; ++round) {
            auto t0 = std::chrono::steady_clock::now();
            for (std::size_t i = 0; i < texts.size(); ++i)
                packed[i] = payload::pack(texts[i], c.dictionary, c.codec);
            auto t1 = std::chrono::steady_clock::now();
            for (std::size_t i = 0; i < texts.size(); ++i)
                payload::unpackInto(packed[i], out);
            auto t2 = std::chrono::steady_clock::now();
            packUs.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / double(texts.size()));
            unpackUs.push_back(std::chrono::duration<double, std::micro>(t2 - t1).count() / double(texts.size()));
            packedBytes = 0;
            for (const auto &p : packed)
                packedBytes += p.size();
        }
        for (std::size_t i = 0; i < texts.size(); i += 997) {
            payload::unpackInto(packed[i], out);
            if (out != texts[i]) {
                std::fprintf(stderr, "%s: text %zu does not round-trip\n", c.name, i);
                return 1;
            }
        }
        std::printf("%-22s %14.2f %16.2f %10.3f\n", c.name, medianOf(packUs), medianOf(unpackUs),
                    double(packedBytes) / double(bytes));
    }
    return 0;
}
