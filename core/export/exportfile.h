#pragma once
// One output file of an export, written under a temporary name (NAME.partial) with large ::write calls
// and hashed (SHA-256) as it is written, so that the manifest's digest needs no second read of the
// file. finish() closes it and gives the digest; commit() gives it its final name. A file dropped
// before commit() (an error on the way) is removed, so a folder never holds a half-written file under
// the name that a manifest lists.
#include "core/util/hashing.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace sieve {

class ExportFile
{
public:
    // Creates (truncates) PATH.partial; throws std::runtime_error naming it when it cannot.
    explicit ExportFile(std::filesystem::path path);
    ~ExportFile();
    ExportFile(const ExportFile &) = delete;
    ExportFile &operator=(const ExportFile &) = delete;

    // Appends and hashes; throws std::runtime_error naming the file on a write error (disk full).
    void write(std::string_view data);
    // Closes the file (checking that the close succeeded) and returns the SHA-256 of what was written.
    std::string finish();
    // Renames PATH.partial to PATH (replacing an older file). After finish().
    void commit();

    std::uint64_t bytes() const { return m_bytes; }
    const std::filesystem::path &path() const { return m_path; }

private:
    std::filesystem::path m_path, m_partial;
    int m_fd = -1;
    bool m_committed = false;
    std::uint64_t m_bytes = 0;
    hashing::Sha256 m_sha;
};

} // namespace sieve
