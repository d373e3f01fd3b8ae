// frontend/parent_index.h: the parents the rules walk up through are Clang's own (ASTContext::getParents), list for
// list, in the same order and with the same repeats, for every statement of a parse and every node above one:
// template instantiations, implicit code (a call inside a default argument, reached through each
// CXXDefaultArgExpr; a default member initializer), lambdas, and statements with no children, which the index
// leaves to Clang's map.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/DenseSet.h"
#include "worker/translate/frontend/parent_index.h"

namespace hipforge::translate {
namespace {

namespace mat = clang::ast_matchers;

constexpr const char* kCode = R"(
int f() { return 1; }
int g(int x = f() + 1) { return x; }
template <typename T> T twice(T v) { int unused; return v + v * (T)f(); }
struct S { int m = f() * 2; };
template <typename T> struct Box { T value = T(f()); T get() const { return value + 0; } };
int use() {
  S s;
  auto l = [](int a) { return a + f(); };
  Box<int> bi; Box<double> bd;
  int n;
  n = g() + g(2) + g();
  return n + twice(3) + (int)twice(2.0) + l(1) + s.m + bi.get() + (int)bd.get();
}
)";

std::string Describe(const clang::DynTypedNode& node) { return node.getNodeKind().asStringRef().str(); }

// Every ancestor of `start` (each queued once, as FirstAncestor does), with ParentsOf's list checked against
// Clang's at each.
void ExpectAncestorsMatch(clang::ASTContext& context, const clang::DynTypedNode& start, int& checked) {
  std::deque<clang::DynTypedNode> queue{start};
  llvm::DenseSet<const void*> seen;
  for (; !queue.empty(); queue.pop_front()) {
    const clang::DynTypedNode node = queue.front();
    const clang::DynTypedNodeList ours = ParentsOf(context, node);
    const clang::DynTypedNodeList clangs = context.getParents(node);
    ++checked;
    ASSERT_EQ(ours.size(), clangs.size()) << Describe(node);
    for (size_t i = 0; i < ours.size(); ++i) {
      EXPECT_TRUE(ours[i] == clangs[i]) << Describe(node) << " parent " << i << ": " << Describe(ours[i]) << " vs "
                                        << Describe(clangs[i]);
      const void* key = ours[i].getMemoizationData();
      if (!key || seen.insert(key).second) queue.push_back(ours[i]);
    }
  }
}

TEST(ParentIndexTest, EveryStatementAndEveryNodeAboveOneHasClangsParents) {
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(kCode, {"-std=c++17"});
  ASSERT_TRUE(unit);
  clang::ASTContext& context = unit->getASTContext();
  int statements = 0, checked = 0, default_args = 0;
  for (const mat::BoundNodes& bound : mat::match(mat::stmt().bind("s"), context)) {
    const auto* stmt = bound.getNodeAs<clang::Stmt>("s");
    default_args += llvm::isa<clang::CXXDefaultArgExpr>(stmt);
    ++statements;
    ExpectAncestorsMatch(context, clang::DynTypedNode::create(*stmt), checked);
  }
  EXPECT_GT(statements, 50);
  EXPECT_GT(checked, statements);
  EXPECT_GE(default_args, 2) << "g() twice: f() in the default argument is below each CXXDefaultArgExpr";
  ForgetParents(context);
  // Built again after ForgetParents, with the same answers.
  for (const mat::BoundNodes& bound : mat::match(mat::callExpr().bind("c"), context)) {
    ExpectAncestorsMatch(context, clang::DynTypedNode::create(*bound.getNodeAs<clang::CallExpr>("c")), checked);
  }
}

TEST(ParentIndexTest, FirstAncestorFindsWhatHasAncestorFinds) {
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(kCode, {"-std=c++17"});
  ASSERT_TRUE(unit);
  clang::ASTContext& context = unit->getASTContext();
  int calls = 0;
  // Each call to f() and the function definition Clang's hasAncestor binds for it (HB205's question), including
  // the calls in default arguments and member initializers, whose ancestors are several.
  const auto matcher = mat::callExpr(mat::callee(mat::functionDecl(mat::hasName("f"))),
                                     mat::hasAncestor(mat::functionDecl(mat::isDefinition()).bind("caller")))
                           .bind("call");
  for (const mat::BoundNodes& bound : mat::match(matcher, context)) {
    const auto* call = bound.getNodeAs<clang::CallExpr>("call");
    const auto* expected = bound.getNodeAs<clang::FunctionDecl>("caller");
    const auto found = FirstAncestor(context, clang::DynTypedNode::create(*call), [](const clang::DynTypedNode& node) {
      const auto* function = node.get<clang::FunctionDecl>();
      return function && function->isThisDeclarationADefinition();
    });
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->get<clang::FunctionDecl>(), expected) << expected->getNameAsString();
    ++calls;
  }
  EXPECT_GE(calls, 5);
}

}  // namespace
}  // namespace hipforge::translate
