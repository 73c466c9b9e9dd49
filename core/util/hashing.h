#pragma once
// Content keys (fast, 128-bit, not for security) and SHA-256 (for manifests that others check).
#include <initializer_list>
#include <string>
#include <string_view>

struct evp_md_ctx_st; // OpenSSL's EVP_MD_CTX

namespace sieve::hashing {

// Incremental SHA-256 (OpenSSL's libcrypto), for data hashed while it is written.
class Sha256
{
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;
    void update(std::string_view data);
    // 64 hex digits; call once.
    std::string finishHex();

private:
    evp_md_ctx_st *m_ctx;
};

// 32 hex digits of XXH3-128 over the parts, each part length-prefixed so ("ab","c") != ("a","bc").
std::string contentKey(std::initializer_list<std::string_view> parts);

// 64 hex digits.
std::string sha256Hex(std::string_view data);
// SHA-256 of a file's bytes, streamed; throws std::runtime_error when it cannot be read.
std::string sha256File(const std::string &path);

} // namespace sieve::hashing
