// The labelled operations of RFC 9420 §5 for ciphersuite 2 (MLS_128_DHKEMP256_AES128GCM_SHA256_P256), the only suite
// DAVE uses: ExpandWithLabel / DeriveSecret (§8), DeriveTreeSecret (§9.1), RefHash (§5.2), SignWithLabel /
// VerifyWithLabel (§5.1.2) and EncryptWithLabel / DecryptWithLabel (§5.1.3). Every label gets the "MLS 1.0 " prefix
// except RefHash's, which the caller passes whole ("MLS 1.0 KeyPackage Reference").
#pragma once
#include <cstdint>
#include <string_view>

#include "mls/bytes.hpp"
#include "mls/hpke.hpp"

namespace svcpp::core::mls {

inline constexpr uint16_t kCipherSuite = 2;
inline constexpr uint16_t kProtocolVersionMls10 = 1;

Bytes ExpandWithLabel(ByteView secret, std::string_view label, ByteView context, std::size_t length);
Bytes DeriveSecret(ByteView secret, std::string_view label);
Bytes DeriveTreeSecret(ByteView secret, std::string_view label, uint32_t generation, std::size_t length);
Bytes RefHash(ByteView label, ByteView value);

Bytes SignWithLabel(ByteView privateKey, std::string_view label, ByteView content);
bool VerifyWithLabel(ByteView publicKey, std::string_view label, ByteView content, ByteView signature);

struct HpkeCiphertext {
    Bytes kemOutput;
    Bytes ciphertext;
};
HpkeCiphertext EncryptWithLabel(ByteView publicKey, std::string_view label, ByteView context, ByteView plaintext);
/** Throws Error when the ciphertext does not authenticate. */
Bytes DecryptWithLabel(ByteView privateKey, std::string_view label, ByteView context, const HpkeCiphertext &ciphertext);

}  // namespace svcpp::core::mls
