// DAVE's pairwise verification fingerprint (the public DAVE protocol description, `discord/dave-protocol`,
// "Verification Fingerprint"): two users compare it out of band to make sure neither is impersonated in a call.
//
//   buf(user) = version 0x0000 (u16) || the user's MLS signature public key || the user id (u64 big-endian)
//   Fn = scrypt(P = the two buffers sorted bytewise and concatenated, S = a fixed 16-byte salt,
//               N = 16384, r = 8, p = 2, dkLen = 64)
//
// and shown as a 45-digit displayable code (9 groups of 5). The pair is sorted, so A's fingerprint of B is B's of A.
#pragma once
#include <cstdint>
#include <string>

#include "mls/bytes.hpp"

namespace svcpp::core::voice::e2ee {

/** The 64-byte pairwise fingerprint; throws mls::Error when scrypt fails (it needs ~16 MiB). */
mls::Bytes PairwiseFingerprint(uint64_t localUserId, mls::ByteView localSignatureKey, uint64_t remoteUserId,
                               mls::ByteView remoteSignatureKey);

/** The fingerprint as the 45-digit code a UI shows. */
std::string DisplayableFingerprint(uint64_t localUserId, mls::ByteView localSignatureKey, uint64_t remoteUserId,
                                   mls::ByteView remoteSignatureKey);

}  // namespace svcpp::core::voice::e2ee
