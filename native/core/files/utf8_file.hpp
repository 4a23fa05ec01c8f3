// File names are UTF-8 at the C ABI on every system. fopen reads a narrow string in the system's code page on Windows
// (not UTF-8), so files named at the ABI go through these: fopen that opens the UTF-8 name with _wfopen on Windows
// (utf8_file_windows.cpp) and fopen elsewhere (utf8_file_posix.cpp), and the file's stamp (size and last write).
// No std::filesystem: on Windows, libstdc++'s converts paths through std::codecvt, and with libstdc++ linked into
// svcpp.dll statically that brings the whole std::locale machinery (every standard facet, ~0.6 MB) in with it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace svcpp::core::files {

/** fopen of a UTF-8 path; mode as fopen's ("rb", "wb", "w"). Null when it cannot be opened (errno set). */
std::FILE *OpenUtf8File(const std::string &utf8Path, const char *mode);

/** What a cache compares to see whether a file changed: its size and last write time (in the system's unit). */
struct FileStamp {
    uint64_t size = 0;
    int64_t modified = 0;
    bool operator==(const FileStamp &) const = default;
};

/** The stamp of the regular file named by UTF-8 text; false when there is none (missing, a directory, unreadable). */
bool ReadFileStamp(const std::string &utf8Path, FileStamp &stamp);

}  // namespace svcpp::core::files
