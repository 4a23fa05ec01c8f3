#include "files/utf16_windows.hpp"
#include "files/utf8_file.hpp"

#include <windows.h>

namespace svcpp::core::files {

std::wstring Utf8ToUtf16(std::string_view utf8) {
    if (utf8.empty()) return {};
    const int size = static_cast<int>(utf8.size());
    const int wideSize = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(), size, nullptr, 0);
    if (wideSize <= 0) return {};
    std::wstring wide(static_cast<size_t>(wideSize), L'\0');
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, utf8.data(), size, wide.data(), wideSize);
    return wide;
}

std::FILE *OpenUtf8File(const std::string &utf8Path, const char *mode) {
    // The name in UTF-16 (an empty one, for text that is not UTF-8, fails to open), the mode widened byte by byte
    // (it is ASCII).
    const std::wstring path = Utf8ToUtf16(utf8Path);
    std::wstring wideMode;
    for (const char *c = mode; *c; ++c) wideMode.push_back(static_cast<wchar_t>(*c));
    return _wfopen(path.c_str(), wideMode.c_str());
}

bool ReadFileStamp(const std::string &utf8Path, FileStamp &stamp) {
    const std::wstring path = Utf8ToUtf16(utf8Path);
    WIN32_FILE_ATTRIBUTE_DATA data{};
    if (path.empty() || !GetFileAttributesExW(path.c_str(), GetFileExInfoStandard, &data) ||
        (data.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY)) {
        return false;
    }
    stamp.size = (static_cast<uint64_t>(data.nFileSizeHigh) << 32) | data.nFileSizeLow;
    // 100-nanosecond intervals since 1601: compared only with another stamp of the same file.
    stamp.modified = static_cast<int64_t>((static_cast<uint64_t>(data.ftLastWriteTime.dwHighDateTime) << 32) |
                                          data.ftLastWriteTime.dwLowDateTime);
    return true;
}

}  // namespace svcpp::core::files
