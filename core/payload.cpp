#include "payload.h"

#include <zstd.h>

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
} // namespace

std::string pack(std::string_view text)
{
    std::string out;
    if (text.size() < kMinCompress) {
        out.reserve(text.size() + 1);
        out.push_back(kRaw);
        out.append(text);
        return out;
    }
    out.resize(1 + ZSTD_compressBound(text.size()));
    out[0] = kZstd;
    const size_t n = ZSTD_compressCCtx(cctx(), out.data() + 1, out.size() - 1, text.data(), text.size(), kLevel);
    if (ZSTD_isError(n))
        throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    out.resize(1 + n);
    return out;
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
    out.resize(size);
    const size_t n = ZSTD_decompressDCtx(dctx(), out.data(), out.size(), body.data(), body.size());
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

} // namespace sieve::payload
