// What group_state.cpp (joining, processing) and group_commit.cpp (creating commits) share; not a public header.
#pragma once
#include <map>

#include "mls/group_state.hpp"

namespace svcpp::core::mls {

/** Our commit, kept until the voice server says whether it won. */
struct GroupState::Pending {
    Bytes commit;
    GroupState next;
};

/** Drops the private keys whose node is blank or now holds another public key (after paths and removals). */
void PruneKeys(std::map<uint32_t, Bytes> &keys, const RatchetTree &tree);

}  // namespace svcpp::core::mls
