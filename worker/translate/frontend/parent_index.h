#pragma once
// The parents of AST nodes for the matchers' callbacks, as ASTContext::getParents gives them but cheaper to build.
// Internal (Clang headers).
#include <optional>

#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang {
class ASTContext;
}

namespace hipforge::translate {

// The parents of `node`, a statement with children (those the rules start from) or a node above one (any other node
// is answered by Clang's map, built then): the same list, in the same order and with the same repeats,
// as `context.getParents(node)` (clang::ParentMapContext), from a map of the traversal scope built on the first call in
// a parse (the same RecursiveASTVisitor as Clang's) and kept until ForgetParents or the ASTContext's end. Why not
// Clang's map (~11% of a cold ggml translate's CPU, bench/ggml/README.md): Clang 16 drops a repeated parent by
// searching the node's list, quadratic in its length, and a subexpression or type that the template instantiator reuses
// unchanged is a child of the pattern and of every instantiation (ggml's template-instance units instantiate the same
// kernels many times); this map keeps a set beside each list of several parents, and leaves out the nodes that no walk
// up from such a statement reaches.
clang::DynTypedNodeList ParentsOf(clang::ASTContext& context, const clang::DynTypedNode& node);
template <typename T>
clang::DynTypedNodeList ParentsOf(clang::ASTContext& context, const T& node) {
  return ParentsOf(context, clang::DynTypedNode::create(node));
}

// The first ancestor of `node` that `matches` is true for, searched as the hasAncestor matcher does (up the chain of
// single parents, then breadth first from the first node with several, each ancestor queued once), over ParentsOf;
// nullopt when none.
std::optional<clang::DynTypedNode> FirstAncestor(clang::ASTContext& context, const clang::DynTypedNode& node,
                                                 llvm::function_ref<bool(const clang::DynTypedNode&)> matches);

// Drops the map built for `context` early (unit_parser.cc, once the matchers are done); the ASTContext's end drops
// it too.
void ForgetParents(const clang::ASTContext& context);

}  // namespace hipforge::translate
