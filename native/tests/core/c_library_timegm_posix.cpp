#include "c_library_timegm.hpp"

namespace svcpp::test {

int64_t CLibraryTimegm(std::tm tm) { return static_cast<int64_t>(::timegm(&tm)); }

}  // namespace svcpp::test
