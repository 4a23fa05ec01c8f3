// The C++ side of the MLS interop test (test/mls-interop.test.ts), driven by command line, answering one JSON line:
//   svcpp_mls_interop create-key-package <user id>   → {"keyPackage": hex, "ref": hex}
//   svcpp_mls_interop validate-key-package <hex>     → {"ok": true, "ref": hex, "identity": hex}
//                                                      or {"ok": false, "error": text}
//   svcpp_mls_interop open-with-label <private hex> <label> <context hex> <kem output hex> <ciphertext hex>
//                                                    → {"ok": true, "plaintext": hex} or {"ok": false, "error": text}
//   svcpp_mls_interop seal-with-label <public hex> <label> <context hex> <plaintext hex>
//                                                    → {"kemOutput": hex, "ciphertext": hex}
//   svcpp_mls_interop process-external-proposal <external sender hex> <group id hex> <epoch> <MLSMessage hex>
//                                                    → {"ok": true, "type": n, "removed": n, "identity": hex, "ref":
//                                                    hex}
//                                                      or {"ok": false, "error": text}
//   svcpp_mls_interop create-external-remove <group id hex> <epoch> <leaf>
//                                                    → {"externalSender": hex, "message": hex}
//   svcpp_mls_interop join-welcome <user id>          → prints {"keyPackage": hex}, then reads one line (a Welcome as
//                                                      hex) from stdin and prints {"ok": true, "epoch": n,
//                                                      "ownLeaf": n, "epochAuthenticator": hex, "exporter": hex,
//                                                      "daveBaseSecret": hex} or {"ok": false, "error": text};
//                                                      then each further line is a commit (MLSMessage hex),
//                                                      answered {"ok": true, "epoch": n, "epochAuthenticator": hex,
//                                                      "exporter": hex} or {"ok": false, "error": text}
//   svcpp_mls_interop host-group <user id> <group id hex>
//                                                    → creates a group with itself as member and a voice-server
//                                                      external sender, prints {"externalSender": hex}; then reads
//                                                      lines: "add <key package hex>" / "remove <leaf>" (the external
//                                                      sender proposes, svcpp commits and merges) answered
//                                                      {"ok": true, "proposal": hex, "commit": hex, "welcome": hex or
//                                                      "", "epoch": n, "epochAuthenticator": hex, "exporter": hex};
//                                                      "commit <MLSMessage hex>" (another member's commit) answered
//                                                      {"ok": true, "epoch": n, "epochAuthenticator": hex, "exporter":
//                                                      hex}; any failure {"ok": false, "error": text}
// The other side is ts-mls, an independent implementation from the npm registry.
#include <cstdio>
#include <iostream>
#include <optional>
#include <cstring>
#include <string>

#include "../hex.hpp"
#include "mls/cipher_suite.hpp"
#include "mls/external_proposal.hpp"
#include "mls/group_state.hpp"
#include "mls/key_package.hpp"
#include "mls/welcome.hpp"

using namespace svcpp::core::mls;

namespace {

std::string Hex(ByteView bytes) { return test::ToHex(bytes); }
Bytes FromHex(const std::string &hex) { return test::Hex(hex); }

void PrintEpoch(const GroupState &group, const std::string &extra = "") {
    Bytes exporter = group.Export("svcpp interop", {}, 32);
    std::printf("{\"ok\":true,%s\"epoch\":%llu,\"epochAuthenticator\":\"%s\",\"exporter\":\"%s\"}\n", extra.c_str(),
                static_cast<unsigned long long>(group.Epoch()), Hex(group.Secrets().epochAuthenticator).c_str(),
                Hex(exporter).c_str());
}

std::string JsonString(const std::string &text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out.push_back('\\');
        out.push_back(c);
    }
    return out + "\"";
}

int Usage() {
    std::fprintf(stderr,
                 "usage: svcpp_mls_interop create-key-package <user id> | validate-key-package <hex> | "
                 "open-with-label <priv> <label> <context> <kem output> <ciphertext> | "
                 "seal-with-label <pub> <label> <context> <plaintext>\n");
    return 2;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 3) return Usage();
    std::string command = argv[1];
    try {
        if (command == "create-key-package") {
            KeyPackageBundle bundle = CreateDaveKeyPackage(std::stoull(argv[2]), primitives::GenerateP256());
            std::printf("{\"keyPackage\":\"%s\",\"ref\":\"%s\"}\n", Hex(bundle.keyPackage.Encode()).c_str(),
                        Hex(bundle.keyPackage.Ref()).c_str());
            return 0;
        }
        if (command == "validate-key-package") {
            try {
                KeyPackage kp = KeyPackage::Decode(FromHex(argv[2]));
                kp.Validate();
                std::printf("{\"ok\":true,\"ref\":\"%s\",\"identity\":\"%s\"}\n", Hex(kp.Ref()).c_str(),
                            Hex(kp.leafNode.credential.identity).c_str());
            } catch (const Error &e) {
                std::printf("{\"ok\":false,\"error\":%s}\n", JsonString(e.what()).c_str());
            }
            return 0;
        }
        if (command == "open-with-label" && argc == 7) {
            try {
                Bytes plaintext = DecryptWithLabel(FromHex(argv[2]), argv[3], FromHex(argv[4]),
                                                   HpkeCiphertext{FromHex(argv[5]), FromHex(argv[6])});
                std::printf("{\"ok\":true,\"plaintext\":\"%s\"}\n", Hex(plaintext).c_str());
            } catch (const Error &e) {
                std::printf("{\"ok\":false,\"error\":%s}\n", JsonString(e.what()).c_str());
            }
            return 0;
        }
        if (command == "process-external-proposal" && argc == 6) {
            try {
                std::vector<ExternalSender> senders = {ExternalSender::Decode(FromHex(argv[2]))};
                ExternalProposal p =
                    ProcessExternalProposal(FromHex(argv[5]), senders, FromHex(argv[3]), std::stoull(argv[4]));
                std::string identity = p.added ? Hex(p.added->leafNode.credential.identity) : "";
                std::printf("{\"ok\":true,\"type\":%u,\"removed\":%u,\"identity\":\"%s\",\"ref\":\"%s\"}\n",
                            p.proposalType, p.removedLeaf, identity.c_str(), Hex(p.ref).c_str());
            } catch (const Error &e) {
                std::printf("{\"ok\":false,\"error\":%s}\n", JsonString(e.what()).c_str());
            }
            return 0;
        }
        if (command == "create-external-remove" && argc == 5) {
            primitives::KeyPair key = primitives::GenerateP256();
            ExternalSender sender{key.publicKey, Credential{kCredentialBasic, DaveIdentity(0)}};
            Bytes message = CreateExternalProposal(key.privateKey, 0, FromHex(argv[2]), std::stoull(argv[3]),
                                                   std::nullopt, static_cast<uint32_t>(std::stoul(argv[4])));
            std::printf("{\"externalSender\":\"%s\",\"message\":\"%s\"}\n", Hex(sender.Encode()).c_str(),
                        Hex(message).c_str());
            return 0;
        }
        if (command == "join-welcome") {
            uint64_t userId = std::stoull(argv[2]);
            primitives::KeyPair signatureKey = primitives::GenerateP256();
            KeyPackageBundle bundle = CreateDaveKeyPackage(userId, signatureKey);
            std::printf("{\"keyPackage\":\"%s\"}\n", Hex(bundle.keyPackage.Encode()).c_str());
            std::fflush(stdout);
            std::string line;
            if (!std::getline(std::cin, line)) return 1;
            std::optional<GroupState> group;
            try {
                JoinedGroup joined = ProcessWelcome(FromHex(line), bundle.keyPackage, bundle.initPrivateKey);
                Bytes exporter = MlsExporter(joined.secrets.exporterSecret, ToBytes("svcpp interop"), {}, 32);
                // DAVE's sender key base: label "Discord Secure Frames v0", context the user id as u64 little-endian.
                Bytes context(8);
                for (std::size_t i = 0; i < 8; ++i) context[i] = static_cast<uint8_t>(userId >> (8 * i));
                Bytes dave =
                    MlsExporter(joined.secrets.exporterSecret, ToBytes("Discord Secure Frames v0"), context, 16);
                std::printf(
                    "{\"ok\":true,\"epoch\":%llu,\"ownLeaf\":%u,\"epochAuthenticator\":\"%s\","
                    "\"exporter\":\"%s\",\"daveBaseSecret\":\"%s\"}\n",
                    static_cast<unsigned long long>(joined.groupInfo.groupContext.epoch),
                    joined.ownLeaf.value_or(UINT32_MAX), Hex(joined.secrets.epochAuthenticator).c_str(),
                    Hex(exporter).c_str(), Hex(dave).c_str());
                group = GroupState::FromWelcome(joined, bundle, signatureKey.privateKey);
            } catch (const Error &e) {
                std::printf("{\"ok\":false,\"error\":%s}\n", JsonString(e.what()).c_str());
            }
            std::fflush(stdout);
            while (group && std::getline(std::cin, line)) {
                try {
                    group->ProcessCommit(FromHex(line));
                    Bytes exporter = MlsExporter(group->Secrets().exporterSecret, ToBytes("svcpp interop"), {}, 32);
                    std::printf("{\"ok\":true,\"epoch\":%llu,\"epochAuthenticator\":\"%s\",\"exporter\":\"%s\"}\n",
                                static_cast<unsigned long long>(group->Epoch()),
                                Hex(group->Secrets().epochAuthenticator).c_str(), Hex(exporter).c_str());
                } catch (const Error &e) {
                    std::printf("{\"ok\":false,\"error\":%s}\n", JsonString(e.what()).c_str());
                }
                std::fflush(stdout);
            }
            return 0;
        }
        if (command == "host-group" && argc == 4) {
            primitives::KeyPair serverKey = primitives::GenerateP256();
            std::vector<ExternalSender> senders = {
                ExternalSender{serverKey.publicKey, Credential{kCredentialBasic, DaveIdentity(0)}}};
            primitives::KeyPair signatureKey = primitives::GenerateP256();
            KeyPackageBundle bundle = CreateDaveKeyPackage(std::stoull(argv[2]), signatureKey);
            GroupState group = GroupState::Create(FromHex(argv[3]), bundle, signatureKey.privateKey, senders);
            std::printf("{\"externalSender\":\"%s\"}\n", Hex(senders[0].Encode()).c_str());
            std::fflush(stdout);
            std::string line;
            while (std::getline(std::cin, line)) {
                try {
                    std::string verb = line.substr(0, line.find(' '));
                    std::string argument = line.substr(line.find(' ') + 1);
                    if (verb == "commit") {
                        group.ProcessCommit(FromHex(argument));
                        PrintEpoch(group);
                    } else if (verb == "add" || verb == "remove") {
                        std::optional<KeyPackage> added;
                        uint32_t removed = 0;
                        if (verb == "add")
                            added = KeyPackage::Decode(FromHex(argument));
                        else
                            removed = static_cast<uint32_t>(std::stoul(argument));
                        Bytes message = CreateExternalProposal(serverKey.privateKey, 0, group.GroupId(), group.Epoch(),
                                                               added, removed);
                        ExternalProposal proposal =
                            ProcessExternalProposal(message, senders, group.GroupId(), group.Epoch());
                        CommitOutput out = group.Commit({proposal});
                        group.MergePendingCommit();  // as the voice server would pick it
                        PrintEpoch(group, "\"proposal\":\"" + Hex(message) + "\",\"commit\":\"" + Hex(out.commit) +
                                              "\",\"welcome\":\"" + (out.welcome ? Hex(*out.welcome) : "") + "\",");
                    } else {
                        throw Error("unknown command " + verb);
                    }
                } catch (const Error &e) {
                    std::printf("{\"ok\":false,\"error\":%s}\n", JsonString(e.what()).c_str());
                }
                std::fflush(stdout);
            }
            return 0;
        }
        if (command == "seal-with-label" && argc == 6) {
            HpkeCiphertext ct = EncryptWithLabel(FromHex(argv[2]), argv[3], FromHex(argv[4]), FromHex(argv[5]));
            std::printf("{\"kemOutput\":\"%s\",\"ciphertext\":\"%s\"}\n", Hex(ct.kemOutput).c_str(),
                        Hex(ct.ciphertext).c_str());
            return 0;
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "svcpp_mls_interop: %s\n", e.what());
        return 1;
    }
    return Usage();
}
