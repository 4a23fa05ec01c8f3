// Redactor: keeps tokens and secrets out of log lines (native/SEMANTICS.md "Connection": log lines never contain a
// secret).
//
// Two layers, because either alone can miss: every secret the client handles (access, refresh and child
// tokens, authorization codes, PKCE verifiers, external credentials) is registered and replaced wherever
// it appears; and credential-shaped text ("Bearer …", "token=…", "\"access_token\":\"…\"") is masked even
// when the secret was never registered.
#pragma once
#include <mutex>
#include <set>
#include <string>
#include <string_view>

namespace svcpp::core {

class Redactor {
  public:
    /** Registers a secret (ignored when shorter than 8 characters: too short to be a credential). */
    void Add(std::string_view secret);
    /** The line with every secret and credential-shaped value replaced by "[redacted]". */
    std::string Apply(std::string line) const;

  private:
    mutable std::mutex mutex_;
    std::set<std::string> secrets_;
};

}  // namespace svcpp::core
