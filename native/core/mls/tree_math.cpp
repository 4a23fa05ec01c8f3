#include "mls/tree_math.hpp"

#include <bit>

#include "mls/bytes.hpp"

namespace svcpp::core::mls::tree_math {

uint32_t Level(uint32_t node) { return static_cast<uint32_t>(std::countr_one(node)); }

uint32_t NodeWidth(uint32_t leafCount) { return leafCount == 0 ? 0 : 2 * (leafCount - 1) + 1; }

uint32_t Root(uint32_t leafCount) {
    if (leafCount == 0) throw Error("tree math: empty tree has no root");
    uint32_t width = NodeWidth(leafCount);
    return (1u << (std::bit_width(width) - 1)) - 1;
}

uint32_t Left(uint32_t node) {
    uint32_t k = Level(node);
    if (k == 0) throw Error("tree math: a leaf has no children");
    return node ^ (1u << (k - 1));
}

uint32_t Right(uint32_t node) {
    uint32_t k = Level(node);
    if (k == 0) throw Error("tree math: a leaf has no children");
    return node ^ (3u << (k - 1));
}

namespace {
// The parent in the infinite (full) tree.
uint32_t ParentStep(uint32_t node) {
    uint32_t k = Level(node);
    uint32_t b = (node >> (k + 1)) & 1;
    return (node | (1u << k)) ^ (b << (k + 1));
}
}  // namespace

uint32_t Parent(uint32_t node, uint32_t leafCount) {
    uint32_t root = Root(leafCount);
    if (node == root) throw Error("tree math: the root has no parent");
    if (node >= NodeWidth(leafCount)) throw Error("tree math: node outside the tree");
    uint32_t p = ParentStep(node);
    // In a tree that is not full the parent may lie beyond the right edge: climb until inside.
    while (p >= NodeWidth(leafCount)) p = ParentStep(p);
    return p;
}

bool IsAncestor(uint32_t ancestor, uint32_t node) {
    uint32_t span = (1u << Level(ancestor)) - 1;
    return node != ancestor && node + span >= ancestor && node <= ancestor + span;
}

uint32_t Sibling(uint32_t node, uint32_t leafCount) {
    uint32_t p = Parent(node, leafCount);
    return node < p ? Right(p) : Left(p);
}

}  // namespace svcpp::core::mls::tree_math
