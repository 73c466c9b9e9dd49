#include "core/db/payload.h"

#define ZDICT_STATIC_LINKING_ONLY
#include <lz4.h>
#include <zdict.h>
#include <zstd.h>

#include <cstring>

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>

namespace sieve::payload {

namespace {
constexpr char kRaw = 'r';
constexpr char kZstd = 'z';
constexpr char kLz4 =
    'l'; // then the dictionary id and the text's size (4 bytes each, little-endian), then one LZ4 block
constexpr size_t kLz4Header = 9;
constexpr size_t kMinCompress = 96; // below this zstd's frame overhead eats the gain
// Level -1: on ~3 KB kernels 40 % less CPU than level 3 (the import's largest stage), for about 20 %
// more bytes (no Huffman coding of literals; level 1 keeps it and costs 80 % of level 3). A zstd frame
// decodes whatever level made it, so blobs written at level 3 by earlier versions still unpack.
// Figures: bench/RESULTS.md, Import.
constexpr int kLevel = -1;
constexpr size_t kDictionaryBytes = 64 * 1024;

ZSTD_CCtx *cctx()
{
    thread_local struct Holder
    {
        ZSTD_CCtx *ctx = ZSTD_createCCtx();
        ~Holder() { ZSTD_freeCCtx(ctx); }
    } holder;
    return holder.ctx;
}

ZSTD_DCtx *dctx()
{
    thread_local struct Holder
    {
        ZSTD_DCtx *ctx = ZSTD_createDCtx();
        ~Holder() { ZSTD_freeDCtx(ctx); }
    } holder;
    return holder.ctx;
}

// The compressed frame goes to a per-thread scratch buffer of zstd's worst-case size first, so that the
// blob itself is allocated once at its final size.
std::string &scratch()
{
    thread_local std::string buffer;
    return buffer;
}

// Every corpus open registers its dictionaries, and most processes only read: the compression side
// is built the first time something packs with it.
// LZ4 uses the same bytes as history before each text (their last 64 KiB: the trained content).
struct Dictionary
{
    std::string bytes;
    ZSTD_DDict *d = nullptr;
    ~Dictionary()
    {
        ZSTD_freeCDict(m_c);
        ZSTD_freeDDict(d);
        LZ4_freeStream(m_lz4);
    }
    const ZSTD_CDict *compression()
    {
        std::call_once(m_once, [this] { m_c = ZSTD_createCDict(bytes.data(), bytes.size(), kLevel); });
        if (!m_c)
            throw std::runtime_error("payload dictionary could not be loaded for compression");
        return m_c;
    }
    // A stream with the dictionary loaded; each text is compressed on a copy of it.
    const LZ4_stream_t *lz4()
    {
        std::call_once(m_lz4Once, [this] {
            m_lz4 = LZ4_createStream();
            if (m_lz4)
                LZ4_loadDict(m_lz4, bytes.data(), static_cast<int>(bytes.size()));
        });
        if (!m_lz4)
            throw std::runtime_error("payload dictionary could not be loaded for compression");
        return m_lz4;
    }

private:
    std::once_flag m_once, m_lz4Once;
    ZSTD_CDict *m_c = nullptr;
    LZ4_stream_t *m_lz4 = nullptr;
};

// Dictionaries are never unregistered: a process holds a handful at most, and a blob read from one
// corpus can then never meet a dictionary freed by another.
struct Registry
{
    std::shared_mutex mutex;
    std::map<std::uint32_t, std::unique_ptr<Dictionary>> byId;
};

Registry &registry()
{
    static Registry r;
    return r;
}

Dictionary *findDictionary(std::uint32_t id)
{
    Registry &r = registry();
    std::shared_lock lock(r.mutex);
    const auto it = r.byId.find(id);
    return it == r.byId.end() ? nullptr : it->second.get();
}

std::string frame(std::string_view text, const ZSTD_CDict *dict)
{
    std::string &buf = scratch();
    const size_t bound = ZSTD_compressBound(text.size());
    if (buf.size() < bound)
        buf.resize(bound);
    const size_t n = dict ? ZSTD_compress_usingCDict(cctx(), buf.data(), bound, text.data(), text.size(), dict)
                          : ZSTD_compressCCtx(cctx(), buf.data(), bound, text.data(), text.size(), kLevel);
    if (ZSTD_isError(n))
        throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    std::string out;
    out.reserve(1 + n);
    out.push_back(kZstd);
    out.append(buf.data(), n);
    return out;
}
void putLE32(char *p, std::uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        p[i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

std::uint32_t getLE32(const char *p)
{
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v |= std::uint32_t(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
}

std::string lz4Block(std::string_view text, std::uint32_t dictionary, Dictionary *d)
{
    if (text.size() > std::size_t(LZ4_MAX_INPUT_SIZE))
        throw std::runtime_error("payload too large for LZ4 (" + std::to_string(text.size()) + " bytes)");
    thread_local LZ4_stream_t stream;
    if (d)
        std::memcpy(&stream, d->lz4(), sizeof stream);
    else
        LZ4_initStream(&stream, sizeof stream);
    std::string &buf = scratch();
    const int bound = LZ4_compressBound(static_cast<int>(text.size()));
    if (buf.size() < std::size_t(bound))
        buf.resize(std::size_t(bound));
    const int n = LZ4_compress_fast_continue(&stream, text.data(), buf.data(), static_cast<int>(text.size()), bound, 1);
    if (n <= 0)
        throw std::runtime_error("LZ4 compression failed");
    std::string out(kLz4Header + std::size_t(n), '\0');
    out[0] = kLz4;
    putLE32(out.data() + 1, dictionary);
    putLE32(out.data() + 5, static_cast<std::uint32_t>(text.size()));
    std::memcpy(out.data() + kLz4Header, buf.data(), std::size_t(n));
    return out;
}
} // namespace

std::string pack(std::string_view text, std::uint32_t dictionary, Codec codec)
{
    if (text.size() < kMinCompress) {
        std::string out;
        out.reserve(text.size() + 1);
        out.push_back(kRaw);
        out.append(text);
        return out;
    }
    Dictionary *d = nullptr;
    if (dictionary != 0 && !(d = findDictionary(dictionary)))
        throw std::logic_error("payload dictionary " + std::to_string(dictionary) + " is not registered");
    if (codec == Codec::Lz4)
        return lz4Block(text, dictionary, d);
    return frame(text, d ? d->compression() : nullptr);
}

void unpackInto(std::string_view blob, std::string &out)
{
    out.clear();
    if (blob.empty())
        return;
    const std::string_view body = blob.substr(1);
    if (blob[0] == kRaw) {
        out.assign(body);
        return;
    }
    if (blob[0] == kLz4) {
        if (blob.size() < kLz4Header)
            throw std::runtime_error("payload is not a valid LZ4 block");
        const std::uint32_t dictId = getLE32(blob.data() + 1), size = getLE32(blob.data() + 5);
        const Dictionary *d = nullptr;
        if (dictId != 0 && !(d = findDictionary(dictId)))
            throw std::runtime_error("payload was compressed with dictionary " + std::to_string(dictId) +
                                     ", which is not in this corpus's payload_dicts table");
        if (size > std::uint32_t(LZ4_MAX_INPUT_SIZE))
            throw std::runtime_error("payload is not a valid LZ4 block");
        out.resize(size);
        const std::string_view block = blob.substr(kLz4Header);
        const int n = LZ4_decompress_safe_usingDict(block.data(), out.data(), static_cast<int>(block.size()),
                                                    static_cast<int>(size), d ? d->bytes.data() : nullptr,
                                                    d ? static_cast<int>(d->bytes.size()) : 0);
        if (n < 0 || std::uint32_t(n) != size) {
            out.clear();
            throw std::runtime_error("payload could not be decompressed");
        }
        return;
    }
    if (blob[0] != kZstd)
        throw std::runtime_error("payload has an unknown encoding");
    const unsigned long long size = ZSTD_getFrameContentSize(body.data(), body.size());
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN)
        throw std::runtime_error("payload is not a valid zstd frame");
    const std::uint32_t dictId = ZSTD_getDictID_fromFrame(body.data(), body.size());
    const Dictionary *d = nullptr;
    if (dictId != 0 && !(d = findDictionary(dictId)))
        throw std::runtime_error("payload was compressed with dictionary " + std::to_string(dictId) +
                                 ", which is not in this corpus's payload_dicts table");
    out.resize(size);
    const size_t n = d ? ZSTD_decompress_usingDDict(dctx(), out.data(), out.size(), body.data(), body.size(), d->d)
                       : ZSTD_decompressDCtx(dctx(), out.data(), out.size(), body.data(), body.size());
    if (ZSTD_isError(n) || n != size) {
        out.clear();
        throw std::runtime_error("payload could not be decompressed");
    }
}

std::string unpack(std::string_view blob)
{
    std::string out;
    unpackInto(blob, out);
    return out;
}

std::string trainDictionary(const std::vector<std::string_view> &samples)
{
    std::string joined;
    std::vector<size_t> sizes;
    sizes.reserve(samples.size());
    for (std::string_view s : samples) {
        joined.append(s);
        sizes.push_back(s.size());
    }
    // fastCover with fixed parameters: a tenth of a second on a thousand kernels, where the default
    // parameter search takes four times as long for no better ratio on them. Long segments (k) make a
    // dictionary of whole boilerplate lines, which also compresses faster (bench/RESULTS.md, Import).
    ZDICT_fastCover_params_t params{};
    params.k = 1000;
    params.d = 8;
    params.f = 20;
    params.accel = 1;
    params.splitPoint = 1.0;
    params.zParams.compressionLevel = kLevel;
    std::string dict(kDictionaryBytes, '\0');
    const size_t n = ZDICT_trainFromBuffer_fastCover(dict.data(), dict.size(), joined.data(), sizes.data(),
                                                     static_cast<unsigned>(sizes.size()), params);
    if (ZDICT_isError(n))
        return {};
    dict.resize(n);
    return dict;
}

std::uint32_t dictionaryId(std::string_view dictionary)
{
    return ZDICT_getDictID(dictionary.data(), dictionary.size());
}

void registerDictionary(std::string_view dictionary)
{
    const std::uint32_t id = dictionaryId(dictionary);
    if (id == 0)
        throw std::runtime_error("payload dictionary is not a zstd dictionary");
    Registry &r = registry();
    std::unique_lock lock(r.mutex);
    if (const auto it = r.byId.find(id); it != r.byId.end()) {
        if (it->second->bytes != dictionary)
            throw std::runtime_error("two different payload dictionaries have id " + std::to_string(id));
        return;
    }
    auto d = std::make_unique<Dictionary>();
    d->bytes = std::string(dictionary);
    d->d = ZSTD_createDDict(d->bytes.data(), d->bytes.size());
    if (!d->d)
        throw std::runtime_error("payload dictionary " + std::to_string(id) + " could not be loaded");
    r.byId.emplace(id, std::move(d));
}

bool hasDictionary(std::uint32_t id)
{
    return findDictionary(id) != nullptr;
}

std::uint32_t dictionaryOf(std::string_view blob)
{
    if (blob.size() >= kLz4Header && blob[0] == kLz4)
        return getLE32(blob.data() + 1);
    if (blob.size() < 2 || blob[0] != kZstd)
        return 0;
    return ZSTD_getDictID_fromFrame(blob.data() + 1, blob.size() - 1);
}

} // namespace sieve::payload
