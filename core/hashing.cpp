#include "hashing.h"

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace sieve::hashing {

namespace {
std::string hex(const unsigned char *bytes, size_t n)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string out(n * 2, '0');
    for (size_t i = 0; i < n; ++i) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 15];
    }
    return out;
}

class Sha256 {
public:
    void update(const unsigned char *data, size_t len)
    {
        for (size_t i = 0; i < len; ++i) {
            m_block[m_blockLen++] = data[i];
            if (m_blockLen == 64) {
                transform();
                m_bits += 512;
                m_blockLen = 0;
            }
        }
    }
    std::array<unsigned char, 32> finish()
    {
        std::uint64_t bits = m_bits + m_blockLen * 8ull;
        const unsigned char pad = 0x80;
        update(&pad, 1);
        const unsigned char zero = 0;
        while (m_blockLen != 56)
            update(&zero, 1);
        unsigned char len[8];
        for (int i = 7; i >= 0; --i) {
            len[i] = static_cast<unsigned char>(bits & 0xff);
            bits >>= 8;
        }
        update(len, 8);
        std::array<unsigned char, 32> out{};
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 4; ++j)
                out[i * 4 + j] = static_cast<unsigned char>(m_h[i] >> (24 - 8 * j));
        return out;
    }

private:
    static std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
    void transform()
    {
        static constexpr std::uint32_t k[64] = {
            0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
            0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
            0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
            0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
            0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
            0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
            0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
            0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
        std::uint32_t w[64];
        for (int i = 0; i < 16; ++i)
            w[i] = (std::uint32_t(m_block[4 * i]) << 24) | (std::uint32_t(m_block[4 * i + 1]) << 16) |
                   (std::uint32_t(m_block[4 * i + 2]) << 8) | std::uint32_t(m_block[4 * i + 3]);
        for (int i = 16; i < 64; ++i) {
            const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
            const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        std::uint32_t a = m_h[0], b = m_h[1], c = m_h[2], d = m_h[3], e = m_h[4], f = m_h[5], g = m_h[6],
                      h = m_h[7];
        for (int i = 0; i < 64; ++i) {
            const std::uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
            const std::uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        m_h[0] += a; m_h[1] += b; m_h[2] += c; m_h[3] += d;
        m_h[4] += e; m_h[5] += f; m_h[6] += g; m_h[7] += h;
    }

    std::uint32_t m_h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                            0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    unsigned char m_block[64] = {};
    size_t m_blockLen = 0;
    std::uint64_t m_bits = 0;
};
} // namespace

std::string contentKey(std::initializer_list<std::string_view> parts)
{
    XXH3_state_t state;
    XXH3_128bits_reset(&state);
    for (std::string_view p : parts) {
        const std::uint64_t len = p.size();
        XXH3_128bits_update(&state, &len, sizeof len);
        XXH3_128bits_update(&state, p.data(), p.size());
    }
    XXH128_canonical_t canon;
    XXH128_canonicalFromHash(&canon, XXH3_128bits_digest(&state));
    return hex(canon.digest, sizeof canon.digest);
}

std::string sha256Hex(std::string_view data)
{
    Sha256 h;
    h.update(reinterpret_cast<const unsigned char *>(data.data()), data.size());
    const auto d = h.finish();
    return hex(d.data(), d.size());
}

std::string sha256File(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read '" + path + "'");
    Sha256 h;
    std::array<char, 1 << 16> buf;
    while (in) {
        in.read(buf.data(), buf.size());
        h.update(reinterpret_cast<const unsigned char *>(buf.data()), static_cast<size_t>(in.gcount()));
    }
    const auto d = h.finish();
    return hex(d.data(), d.size());
}

} // namespace sieve::hashing
