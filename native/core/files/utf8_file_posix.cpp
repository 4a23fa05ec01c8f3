#include "files/utf8_file.hpp"

#include <sys/stat.h>

namespace svcpp::core::files {

// POSIX file names are bytes; UTF-8 text passes as it is.
std::FILE *OpenUtf8File(const std::string &utf8Path, const char *mode) { return std::fopen(utf8Path.c_str(), mode); }

bool ReadFileStamp(const std::string &utf8Path, FileStamp &stamp) {
    struct stat st {};
    if (::stat(utf8Path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    stamp.size = static_cast<uint64_t>(st.st_size);
    stamp.modified = static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    return true;
}

}  // namespace svcpp::core::files
