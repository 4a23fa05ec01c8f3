// The C library's UTC calendar (timegm's job), the independent reference the timestamp reader's tests compare with.
// One file per system (cmake/platform-sources.cmake): POSIX calls it timegm, Windows' C runtime _mkgmtime64.
#pragma once

#include <cstdint>
#include <ctime>

namespace svcpp::test {

/** Seconds since the Unix epoch of the broken-down UTC time (out-of-range fields normalised, as timegm does). */
int64_t CLibraryTimegm(std::tm tm);

}  // namespace svcpp::test
