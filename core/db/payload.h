#pragma once
// Large text payloads (source, logs, reasoning, raw responses) are stored compressed in side tables so
// that list and count queries never scan them. One byte of header says how the rest is encoded: 'r' raw,
// 'z' a zstd frame, 'l' an LZ4 block (after its dictionary id and size).
//
// Samples are small (a few KB) and alike (the same imports, decorators, launch code), which is what zstd
// dictionaries are for: a 64 KiB dictionary trained on a corpus's first large import halves the bytes of
// a kernel against plain zstd and compresses it in half the time. A corpus keeps its dictionaries in
// its payload_dicts table; Corpus::open registers them here, so unpack() finds a frame's dictionary by
// the id zstd writes into the frame (or the LZ4 header holds). LZ4 uses the same dictionary bytes as the
// history before each text.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sieve::payload {

// zstd (level -1) for the payloads written one at a time (verdict logs, sampled answers); LZ4 for bulk
// imports, where packing was the largest stage: on ~3 KB kernels with the same dictionary it packs in
// 0.4 of zstd's CPU time and unpacks in 0.4, for 1.4 times the bytes (bench/import/codecs.cpp,
// bench/RESULTS.md, Import).
enum class Codec { Zstd, Lz4 };
// `dictionary` 0 packs without one; otherwise it must be registered.
std::string pack(std::string_view text, std::uint32_t dictionary = 0, Codec codec = Codec::Zstd);
// Throws std::runtime_error on a corrupt blob, or one whose dictionary is not registered.
std::string unpack(std::string_view blob);
// The same into `out`, replacing its contents; its capacity is reused, so a loop over many payloads
// does not allocate per payload.
void unpackInto(std::string_view blob, std::string &out);

// Trains a dictionary on sample texts; returns its bytes (empty when zstd finds too little to learn).
std::string trainDictionary(const std::vector<std::string_view> &samples);
// The id zstd assigned to a trained dictionary (derived from its content); 0 for bytes that are not one.
std::uint32_t dictionaryId(std::string_view dictionary);
// Process-wide and idempotent; throws if the bytes are not a dictionary or another one has the same id.
void registerDictionary(std::string_view dictionary);
bool hasDictionary(std::uint32_t id);
// The dictionary a blob was packed with; 0 for none.
std::uint32_t dictionaryOf(std::string_view blob);

} // namespace sieve::payload
