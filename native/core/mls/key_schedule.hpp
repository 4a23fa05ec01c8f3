// The MLS key schedule (RFC 9420 §8): from the previous epoch's init_secret, this epoch's commit_secret, psk_secret
// and GroupContext to the epoch's secrets, plus the exporter (§8.5) DAVE derives its media keys from.
#pragma once
#include <cstdint>
#include <string_view>

#include "mls/bytes.hpp"

namespace svcpp::core::mls {

/** GroupContext (§8.1), with the extensions already encoded as `Extension extensions<V>` body bytes. */
struct GroupContext {
    Bytes groupId;
    uint64_t epoch = 0;
    Bytes treeHash;
    Bytes confirmedTranscriptHash;
    Bytes extensions;  // the encoded extension list (without its own length prefix)

    Bytes Encode() const;
};

struct EpochSecrets {
    Bytes joinerSecret;
    Bytes welcomeSecret;
    Bytes epochSecret;
    Bytes senderDataSecret;
    Bytes encryptionSecret;
    Bytes exporterSecret;
    Bytes externalSecret;
    Bytes confirmationKey;
    Bytes membershipKey;
    Bytes resumptionPsk;
    Bytes epochAuthenticator;
    Bytes initSecret;  // the next epoch's init_secret
};

/** All secrets of an epoch; `encodedGroupContext` is the new epoch's GroupContext. */
EpochSecrets DeriveEpochSecrets(ByteView previousInitSecret, ByteView commitSecret, ByteView pskSecret,
                                ByteView encodedGroupContext);
/** The epoch secrets of a joiner, who learns joiner_secret from the Welcome's GroupSecrets. */
EpochSecrets DeriveEpochSecretsFromJoiner(ByteView joinerSecret, ByteView pskSecret, ByteView encodedGroupContext);
/** welcome_secret alone (a joiner needs it to decrypt GroupInfo before it knows the GroupContext). */
Bytes WelcomeSecret(ByteView joinerSecret, ByteView pskSecret);
/** The key and nonce that encrypt GroupInfo in a Welcome (§12.4.3.1). */
struct WelcomeKey {
    Bytes key;
    Bytes nonce;
};
WelcomeKey DeriveWelcomeKey(ByteView welcomeSecret);

/** MLS-Exporter(Label, Context, Length) (§8.5). */
Bytes MlsExporter(ByteView exporterSecret, ByteView label, ByteView context, std::size_t length);

}  // namespace svcpp::core::mls
