// How many trusted roots the system itself has, counted without svcpp's code: the independent reference the trust
// store's tests compare with. One file per system (cmake/platform-sources.cmake): on POSIX the certificates OpenSSL's
// own default paths load; on Windows the distinct certificates (by thumbprint) of the ROOT system store.
#pragma once

#include <cstddef>

namespace svcpp::test {

/** The number of distinct root certificates the system trusts for TLS, as the system's own interface lists them. */
std::size_t SystemRootCount();

}  // namespace svcpp::test
