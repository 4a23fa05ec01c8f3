// Array-based binary tree arithmetic (RFC 9420 Appendix C): leaves at even node indices, a node's level is its number
// of trailing one bits, and the tree over n leaves has 2n-1 nodes rooted at 2^floor(log2(2n-1)) - 1.
#pragma once
#include <cstdint>

namespace svcpp::core::mls::tree_math {

uint32_t Level(uint32_t node);
uint32_t NodeWidth(uint32_t leafCount);
uint32_t Root(uint32_t leafCount);
/** Children of an intermediate node (level > 0). */
uint32_t Left(uint32_t node);
uint32_t Right(uint32_t node);
/** Parent of a non-root node in a tree over `leafCount` leaves. */
uint32_t Parent(uint32_t node, uint32_t leafCount);
uint32_t Sibling(uint32_t node, uint32_t leafCount);
inline uint32_t LeafToNode(uint32_t leaf) { return 2 * leaf; }
/** True when `node` lies strictly below `ancestor` (the subtree of a level-k node spans ±(2^k − 1) indices). */
bool IsAncestor(uint32_t ancestor, uint32_t node);

}  // namespace svcpp::core::mls::tree_math
