#include "files/utf8_file.hpp"

#include <cerrno>

namespace svcpp::core::files {

std::FILE *OpenUtf8File(const std::string &utf8Path, const char *mode) {
    // The path through std::filesystem (UTF-8 → UTF-16), the mode widened byte by byte (it is ASCII).
    const std::filesystem::path path = Utf8Path(utf8Path);
    std::wstring wideMode;
    for (const char *c = mode; *c; ++c) wideMode.push_back(static_cast<wchar_t>(*c));
    return _wfopen(path.c_str(), wideMode.c_str());
}

}  // namespace svcpp::core::files
