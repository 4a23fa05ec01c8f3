// Windows only (utf8_file_windows.cpp): the UTF-16 form of UTF-8 text, what Windows' W functions take.
#pragma once
#include <string>
#include <string_view>

namespace svcpp::core::files {

/** UTF-8 to UTF-16 through MultiByteToWideChar; empty when the text is empty or not UTF-8. */
std::wstring Utf8ToUtf16(std::string_view utf8);

}  // namespace svcpp::core::files
