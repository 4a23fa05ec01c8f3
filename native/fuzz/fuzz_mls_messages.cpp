// libFuzzer target: the MLS decoders and checks DAVE's handshake traffic reaches (native/core/mls). Everything the
// voice gateway relays — KeyPackages (opcode 26), the external sender (25), proposals (27), commits (29) and Welcomes
// (30) — comes from the network through the server; it must fail with mls::Error (never another exception, a crash
// or a read out of bounds) unless it is genuine, and a refused commit must leave the group unchanged.
//
// Input: byte 0 picks the decoder, the rest is the message:
//   0 KeyPackage (decode, re-encode byte for byte, validate)      1 ExternalSender
//   2 external proposal, checked against a fixed group           3 Welcome, for a fixed KeyPackage
//   4 commit, processed by a member of a fixed three-member group (its state must not change on refusal)
//   5 ratchet_tree extension (decode, re-encode, resolutions, tree hash, parent hashes, signatures, filtered direct
//     paths, Add and Remove)                                      6 GroupInfo (decode, re-encode)
//   7 a commit's MLSMessage (decode; with no authenticated data it re-encodes byte for byte)
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "mls/commit_message.hpp"
#include "mls/external_proposal.hpp"
#include "mls/group_state.hpp"
#include "mls/key_package.hpp"
#include "mls/ratchet_tree.hpp"
#include "mls/tree_math.hpp"
#include "mls/welcome.hpp"

using namespace svcpp::core::mls;

namespace {

struct Fixture {
    primitives::KeyPair server = primitives::GenerateP256();
    std::vector<ExternalSender> senders{ExternalSender{server.publicKey, {kCredentialBasic, DaveIdentity(1)}}};
    primitives::KeyPair aliceKey = primitives::GenerateP256();
    primitives::KeyPair bobKey = primitives::GenerateP256();
    KeyPackageBundle alice = CreateDaveKeyPackage(100, aliceKey);
    KeyPackageBundle bob = CreateDaveKeyPackage(200, bobKey);
    KeyPackageBundle carol = CreateDaveKeyPackage(300, primitives::GenerateP256());
    std::optional<GroupState> bobGroup;

    Fixture() {
        const Bytes groupId = ToBytes("fuzz group");
        GroupState creator = GroupState::Create(groupId, alice, aliceKey.privateKey, senders);
        std::vector<ExternalProposal> adds;
        for (const KeyPackageBundle *b : {&bob, &carol}) {
            adds.push_back(ProcessExternalProposal(
                CreateExternalProposal(server.privateKey, 0, groupId, 0, b->keyPackage), senders, groupId, 0));
        }
        CommitOutput out = creator.Commit(adds);
        bobGroup = GroupState::Join(*out.welcome, bob, bobKey.privateKey);
    }
};

Fixture &TheFixture() {
    static Fixture fixture;
    return fixture;
}

void Check(bool condition) {
    if (!condition) __builtin_trap();
}

void FuzzTree(ByteView input) {
    RatchetTree tree = RatchetTree::Decode(input);
    Check(RatchetTree::Decode(tree.Encode()).Encode() == tree.Encode());
    (void)tree.RootTreeHash();
    (void)tree.VerifyParentHashes();
    (void)tree.VerifyLeafSignatures(ToBytes("fuzz group"));
    for (uint32_t node = 0; node < tree.NodeCount(); ++node) (void)tree.Resolution(node);
    std::optional<uint32_t> member;
    for (uint32_t leaf = 0; leaf < tree.LeafCount(); ++leaf) {
        if (tree.IsBlank(tree_math::LeafToNode(leaf))) continue;
        member = leaf;
        (void)tree.FilteredDirectPath(leaf);
    }
    tree.AddLeaf(TheFixture().carol.keyPackage.leafNode);
    if (member) tree.RemoveLeaf(*member);
    (void)tree.RootTreeHash();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    Fixture &f = TheFixture();
    const ByteView input(data + 1, size - 1);
    try {
        switch (data[0] % 8) {
            case 0: {
                KeyPackage kp = KeyPackage::Decode(input);
                Check(kp.Encode() == Bytes(input.begin(), input.end()));
                kp.Validate();
                break;
            }
            case 1: (void)ExternalSender::Decode(input); break;
            case 2: (void)ProcessExternalProposal(input, f.senders, f.bobGroup->GroupId(), f.bobGroup->Epoch()); break;
            case 3: (void)ProcessWelcome(input, f.carol.keyPackage, f.carol.initPrivateKey); break;
            case 4: {
                GroupState group = *f.bobGroup;
                const Bytes before = group.Secrets().epochAuthenticator;
                try {
                    group.ProcessCommit(input);
                } catch (const Error &) {
                    Check(group.Epoch() == f.bobGroup->Epoch() && group.Secrets().epochAuthenticator == before);
                    throw;
                }
                break;
            }
            case 5: FuzzTree(input); break;
            case 6: {
                GroupInfo info = GroupInfo::Decode(input);
                Check(info.Encode() == Bytes(input.begin(), input.end()));
                break;
            }
            case 7: {
                CommitMessage commit = CommitMessage::Decode(input);
                if (commit.EncodeFramedContent() == commit.receivedFramedContent) {
                    Check(commit.Encode() == Bytes(input.begin(), input.end()));
                }
                break;
            }
        }
    } catch (const Error &) {
        // Refused: the expected outcome for almost every input. Any other exception escapes and is reported.
    }
    return 0;
}
