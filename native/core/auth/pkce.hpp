// PKCE (RFC 7636) with the S256 method, and the CSPRNG the SDK uses for verifiers and OAuth2 state.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "generated/values.hpp"

namespace svcpp::core::pkce {

/** BASE64URL without padding (RFC 4648 §5). */
std::string Base64Url(const unsigned char *bytes, size_t size);
/** `size` bytes from OpenSSL's CSPRNG, BASE64URL-encoded. Throws on RNG failure (never falls back). */
std::string RandomToken(size_t size);
/** BASE64URL(SHA-256(verifier)). */
std::string S256Challenge(std::string_view verifier);
/** A fresh pair: a 43-character verifier from 32 random bytes and its S256 challenge. */
AuthorizationCodeVerifier CreateVerifier();

}  // namespace svcpp::core::pkce
