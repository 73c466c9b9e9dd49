#include "payload.h"

#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
#include <zstd.h>

#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>

namespace sieve::payload {

namespace {
constexpr char kRaw = 'r';
constexpr char kZstd = 'z';
constexpr size_t kMinCompress = 96; // below this zstd's frame overhead eats the gain
// Level -1: on ~3 KB kernels 40 % less CPU than level 3 (the import's largest stage), for about 20 %
// more bytes (no Huffman coding of literals; level 1 keeps it and costs 80 % of level 3). A zstd frame
// decodes whatever level made it, so blobs written at level 3 by earlier versions still unpack.
// Figures: bench/RESULTS.md, Import.
constexpr int kLevel = -1;
constexpr size_t kDictionaryBytes = 64 * 1024;

ZSTD_CCtx *cctx()
{
    thread_local struct Holder {
        ZSTD_CCtx *ctx = ZSTD_createCCtx();
        ~Holder() { ZSTD_freeCCtx(ctx); }
    } holder;
    return holder.ctx;
}

ZSTD_DCtx *dctx()
{
    thread_local struct Holder {
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
struct Dictionary {
    std::string bytes;
    ZSTD_DDict *d = nullptr;
    ~Dictionary()
    {
        ZSTD_freeCDict(m_c);
        ZSTD_freeDDict(d);
    }
    const ZSTD_CDict *compression()
    {
        std::call_once(m_once, [this] { m_c = ZSTD_createCDict(bytes.data(), bytes.size(), kLevel); });
        if (!m_c)
            throw std::runtime_error("payload dictionary could not be loaded for compression");
        return m_c;
    }

private:
    std::once_flag m_once;
    ZSTD_CDict *m_c = nullptr;
};

// Dictionaries are never unregistered: a process holds a handful at most, and a blob read from one
// corpus can then never meet a dictionary freed by another.
struct Registry {
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
} // namespace

std::string pack(std::string_view text, std::uint32_t dictionary)
{
    if (text.size() < kMinCompress) {
        std::string out;
        out.reserve(text.size() + 1);
        out.push_back(kRaw);
        out.append(text);
        return out;
    }
    if (dictionary == 0)
        return frame(text, nullptr);
    Dictionary *d = findDictionary(dictionary);
    if (!d)
        throw std::logic_error("payload dictionary " + std::to_string(dictionary) + " is not registered");
    return frame(text, d->compression());
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

bool hasDictionary(std::uint32_t id) { return findDictionary(id) != nullptr; }

std::uint32_t dictionaryOf(std::string_view blob)
{
    if (blob.size() < 2 || blob[0] != kZstd)
        return 0;
    return ZSTD_getDictID_fromFrame(blob.data() + 1, blob.size() - 1);
}

} // namespace sieve::payload
