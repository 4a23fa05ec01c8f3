// File names are UTF-8 at the C ABI on every system. std::filesystem::path and fopen read a narrow string in the
// system's code page on Windows (not UTF-8), so paths from the ABI go through these: a path built from UTF-8
// (portable: C++20's char8_t constructor), and fopen that opens it with _wfopen on Windows (utf8_file_windows.cpp)
// and fopen elsewhere (utf8_file_posix.cpp).
#pragma once
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

namespace svcpp::core::files {

/** The path named by UTF-8 text. */
inline std::filesystem::path Utf8Path(std::string_view utf8) { return std::filesystem::path(std::u8string(utf8.begin(), utf8.end())); }

/** fopen of a UTF-8 path; mode as fopen's ("rb", "wb", "w"). Null when it cannot be opened (errno set). */
std::FILE *OpenUtf8File(const std::string &utf8Path, const char *mode);

}  // namespace svcpp::core::files
