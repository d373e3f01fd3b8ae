#include "worker/translate/frontend/parent_index.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/PointerUnion.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"

namespace hipforge::translate {
namespace {

using clang::DynTypedNode;

// clang::ParentMapContext::ParentMap (clang/lib/AST/ParentMapContext.cpp, LLVM 16) but for the repeat check and
// the nodes left out (Builder): the same maps (nodes with pointer identity by address, TypeLocs and
// NestedNameSpecifierLocs by value) and the same lists, a parent with pointer identity listed once and one without
// at each visit.
class ParentIndex {
 public:
  explicit ParentIndex(clang::ASTContext& context) { Builder(*this).TraverseAST(context); }
  ParentIndex(const ParentIndex&) = delete;
  ParentIndex& operator=(const ParentIndex&) = delete;

  // nullopt: not in the index (the root, or a node no statement with children is below).
  std::optional<clang::DynTypedNodeList> Get(const DynTypedNode& node) const {
    if (node.getNodeKind().hasPointerIdentity()) return Find(pointer_parents_, node.getMemoizationData());
    return Find(other_parents_, node);
  }

 private:
  // A node's parents once it has several; `seen` holds those with pointer identity, which Clang finds by a linear
  // search of `items` (a node's DynTypedNode always has the node's own kind, so its address alone identifies it).
  struct ParentVector {
    void Add(const DynTypedNode& parent) {
      const void* address = parent.getMemoizationData();
      if (!address || seen.insert(address).second) items.push_back(parent);
    }
    llvm::SmallVector<DynTypedNode, 2> items;
    llvm::SmallDenseSet<const void*, 4> seen;
  };
  using Parents = llvm::PointerUnion<const clang::Decl*, const clang::Stmt*, DynTypedNode*, ParentVector*>;

  static DynTypedNode Single(Parents parents) {
    if (const auto* decl = parents.dyn_cast<const clang::Decl*>()) return DynTypedNode::create(*decl);
    if (const auto* stmt = parents.dyn_cast<const clang::Stmt*>()) return DynTypedNode::create(*stmt);
    return *parents.get<DynTypedNode*>();
  }
  template <typename Key, typename Map>
  static std::optional<clang::DynTypedNodeList> Find(const Map& map, const Key& key) {
    auto found = map.find(key);
    if (found == map.end()) return std::nullopt;
    if (const auto* vector = found->second.template dyn_cast<ParentVector*>())
      return llvm::ArrayRef<DynTypedNode>(vector->items);
    return Single(found->second);
  }

  // Clang's ParentMap::ASTVisitor: the same traversal (template instantiations and implicit code, from the
  // translation unit over the traversal scope), and at each visit of a node the same parent added to its list, but
  // only for the statements with children and the nodes above one. The nodes asked about are such statements, and
  // the others (a reference, a literal, a declaration or type with no such statement inside: many nodes) are never
  // above one. A node's parent is recorded when the first such statement at or below it is reached: in the same
  // visit, so each list keeps Clang's order, and in every visit (a node's subtree is the same in each).
  class Builder : public clang::RecursiveASTVisitor<Builder> {
   public:
    using Base = clang::RecursiveASTVisitor<Builder>;
    explicit Builder(ParentIndex& index) : index_(index) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool shouldVisitImplicitCode() const { return true; }

    bool TraverseDecl(clang::Decl* decl) {
      return !decl || Within(DynTypedNode::create(*decl), [&] { return Base::TraverseDecl(decl); });
    }
    bool TraverseAttr(clang::Attr* attr) {
      return !attr || Within(DynTypedNode::create(*attr), [&] { return Base::TraverseAttr(attr); });
    }
    bool TraverseTypeLoc(clang::TypeLoc loc) {
      return !loc || Within(DynTypedNode::create(loc), [&] { return Base::TraverseTypeLoc(loc); });
    }
    bool TraverseNestedNameSpecifierLoc(clang::NestedNameSpecifierLoc loc) {
      return !loc || Within(DynTypedNode::create(loc), [&] { return Base::TraverseNestedNameSpecifierLoc(loc); });
    }
    bool TraverseObjCProtocolLoc(clang::ObjCProtocolLoc loc) {
      return Within(DynTypedNode::create(loc), [&] { return Base::TraverseObjCProtocolLoc(loc); });
    }
    // Statements through the data-recursion hooks, as Clang's (a Traverse override would recurse on the stack).
    bool dataTraverseStmtPre(clang::Stmt* stmt) {
      stack_.push_back(DynTypedNode::create(*stmt));
      if (!stmt->children().empty()) RecordStack();
      return true;
    }
    bool dataTraverseStmtPost(clang::Stmt*) {
      Pop();
      return true;
    }

   private:
    template <typename Children>
    bool Within(const DynTypedNode& node, Children children) {
      stack_.push_back(node);
      const bool result = children();
      Pop();
      return result;
    }
    void Pop() {
      stack_.pop_back();
      recorded_ = std::min(recorded_, stack_.size());
    }
    // Adds each node of the stack not added yet in this visit to its list, with the node below it as the parent.
    void RecordStack() {
      for (size_t i = std::max<size_t>(recorded_, 1); i < stack_.size(); ++i) {
        const DynTypedNode& node = stack_[i];
        if (node.getNodeKind().hasPointerIdentity()) {
          AddParent(index_.pointer_parents_[node.getMemoizationData()], stack_[i - 1]);
        } else {
          AddParent(index_.other_parents_[node], stack_[i - 1]);
        }
      }
      recorded_ = stack_.size();
    }
    void AddParent(Parents& parents, const DynTypedNode& parent) {
      if (parents.isNull()) {
        if (const auto* decl = parent.get<clang::Decl>()) {
          parents = decl;
        } else if (const auto* stmt = parent.get<clang::Stmt>()) {
          parents = stmt;
        } else {
          parents = new (index_.nodes_.Allocate()) DynTypedNode(parent);
        }
        return;
      }
      auto* vector = parents.dyn_cast<ParentVector*>();
      if (!vector) {
        vector = new (index_.vectors_.Allocate()) ParentVector;
        vector->Add(Single(parents));
        parents = vector;
      }
      vector->Add(parent);
    }

    ParentIndex& index_;
    llvm::SmallVector<DynTypedNode, 32> stack_;
    size_t recorded_ = 0;  // the nodes at the bottom of the stack whose parent this visit has added
  };

  llvm::DenseMap<const void*, Parents> pointer_parents_;
  llvm::DenseMap<DynTypedNode, Parents> other_parents_;
  // The parents that are not a Decl or Stmt and the lists, in arenas (Clang allocates each and frees each).
  llvm::SpecificBumpPtrAllocator<DynTypedNode> nodes_;
  llvm::SpecificBumpPtrAllocator<ParentVector> vectors_;
};

// One map per ASTContext of a parse in progress (parses run on several threads).
std::mutex indexes_mutex;
llvm::DenseMap<const clang::ASTContext*, std::unique_ptr<ParentIndex>> indexes;

void ForgetOnDestruction(void* context) { ForgetParents(*static_cast<const clang::ASTContext*>(context)); }

const ParentIndex& IndexOf(clang::ASTContext& context) {
  {
    std::lock_guard<std::mutex> lock(indexes_mutex);
    if (auto found = indexes.find(&context); found != indexes.end()) return *found->second;
  }
  auto index = std::make_unique<ParentIndex>(context);  // outside the lock: other threads' parses go on
  context.AddDeallocation(&ForgetOnDestruction, &context);
  std::lock_guard<std::mutex> lock(indexes_mutex);
  auto& slot = indexes[&context];
  if (!slot) slot = std::move(index);
  return *slot;
}

}  // namespace

clang::DynTypedNodeList ParentsOf(clang::ASTContext& context, const DynTypedNode& node) {
  // Clang's map answers other traversal kinds differently (the parents spelled in source); none is used here.
  if (context.getParentMapContext().getTraversalKind() != clang::TK_AsIs) return context.getParents(node);
  if (std::optional<clang::DynTypedNodeList> parents = IndexOf(context).Get(node)) return *parents;
  // The translation unit has none. Any other node missing has no statement with children below it (a reference, a
  // literal; no walk here starts at one): Clang's map answers, built then. Not decided by Stmt::children(), which
  // leaves out what the traversal visits below a CXXDefaultArgExpr or a DeclStmt without an initializer: HB205's
  // walk up from a call in a default argument passes those, and built Clang's map for ggml (0.6% of the CPU).
  if (node.get<clang::TranslationUnitDecl>()) return llvm::ArrayRef<DynTypedNode>();
  return context.getParents(node);
}

std::optional<DynTypedNode> FirstAncestor(clang::ASTContext& context, const DynTypedNode& node,
                                          llvm::function_ref<bool(const DynTypedNode&)> matches) {
  clang::DynTypedNodeList parents = ParentsOf(context, node);
  while (parents.size() == 1) {
    const DynTypedNode parent = parents[0];
    if (matches(parent)) return parent;
    parents = ParentsOf(context, parent);
  }
  // Clang's hasAncestor keys the queued nodes by address: of the nodes without one (TypeLocs) only the first is
  // queued. Kept, so that the answers are the matcher's.
  std::deque<DynTypedNode> queue(parents.begin(), parents.end());
  llvm::DenseSet<const void*> visited;
  for (; !queue.empty(); queue.pop_front()) {
    if (matches(queue.front())) return queue.front();
    for (const DynTypedNode& parent : ParentsOf(context, queue.front())) {
      if (visited.insert(parent.getMemoizationData()).second) queue.push_back(parent);
    }
  }
  return std::nullopt;
}

void ForgetParents(const clang::ASTContext& context) {
  std::unique_ptr<ParentIndex> index;  // freed outside the lock
  std::lock_guard<std::mutex> lock(indexes_mutex);
  if (auto found = indexes.find(&context); found != indexes.end()) {
    index = std::move(found->second);
    indexes.erase(found);
  }
}

}  // namespace hipforge::translate
