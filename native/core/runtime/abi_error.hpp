// AbiError: a contract violation detected inside the core (wrong state, unknown token, nested pump).
// The generated C marshalling catches it and turns it into the Svcpp_Errc return plus the thread-local
// last-error message, so the core can state a rule once, where it lives.
#pragma once
#include <stdexcept>
#include <string>

#include "generated/enums.hpp"

namespace svcpp::core {

class AbiError : public std::runtime_error {
  public:
    AbiError(Errc code, const std::string &message) : std::runtime_error(message), code_(code) {}
    Errc code() const noexcept { return code_; }

  private:
    Errc code_;
};

}  // namespace svcpp::core
