#include "files/utf8_file.hpp"

namespace svcpp::core::files {

// POSIX file names are bytes; UTF-8 text passes as it is.
std::FILE *OpenUtf8File(const std::string &utf8Path, const char *mode) { return std::fopen(utf8Path.c_str(), mode); }

}  // namespace svcpp::core::files
