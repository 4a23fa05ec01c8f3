#include "c_library_timegm.hpp"

namespace svcpp::test {

// _mkgmtime64: the C runtime's timegm (64-bit time_t, so years past 2038 and the four centuries the tests walk).
int64_t CLibraryTimegm(std::tm tm) { return static_cast<int64_t>(::_mkgmtime64(&tm)); }

}  // namespace svcpp::test
