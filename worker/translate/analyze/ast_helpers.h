#pragma once
// AST helpers shared by the rules. Internal (Clang headers).
#include <map>
#include <optional>
#include <set>
#include <string>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace hipforge::translate::analyze {

// The expression without parentheses, implicit casts and explicit casts.
const clang::Expr* StripCasts(const clang::Expr* expr);

// Name of the called function ("" for calls through pointers).
std::string CalleeName(const clang::CallExpr* call);

// True when `expr` is computed from the thread's position in its block: threadIdx, a cooperative-groups
// thread_rank(), or a local variable initialized from one of those. With `allow_block_dim`, blockDim counts too
// (blockDim.x / 32 is the number of warps).
bool DerivesFromThreadIndex(const clang::Expr* expr, bool allow_block_dim);

// True when the function calls warp-level primitives (__shfl*, __ballot*, __any*/__all*, __activemask,
// __syncwarp, __match*, __reduce_*_sync, tiled_partition): evidence that 32 there means the warp width.
bool UsesWarpPrimitives(const clang::FunctionDecl* function);

// The function whose body contains `node` (nullptr at namespace scope).
const clang::FunctionDecl* EnclosingFunction(clang::ASTContext& context, const clang::Stmt& node);

// True for __global__ and __device__ functions (and lambdas inside them).
bool IsDeviceFunction(const clang::FunctionDecl* function);

// The integer value of a constant expression.
std::optional<long long> ConstantValue(const clang::Expr* expr, const clang::ASTContext& context);

// The first integer literal with `value` inside `expr` (the spelled constant to point at); nullptr if none. A
// template argument substituted for a parameter is not searched: its literal sits where the parameter's name is
// written, and replacing that name would change every other instantiation.
const clang::IntegerLiteral* FindIntegerLiteral(const clang::Expr* expr, long long value);

// `expr` itself when it is an integer literal written in the source, under parentheses and casts; nullptr for
// anything else, a substituted template argument included (StripCasts looks through those).
const clang::IntegerLiteral* WrittenIntegerLiteral(const clang::Expr* expr);

// Name of the macro `location` was expanded from (innermost), "" if not from a macro.
std::string MacroNameAt(const clang::SourceManager& sm, const clang::LangOptions& lang, clang::SourceLocation location);

// File offset of a location that is directly in a file (not a macro); nullopt otherwise.
std::optional<unsigned> FileOffset(const clang::SourceManager& sm, clang::SourceLocation location);

// End offset (one past) of the token starting at `location` (must be a file location).
std::optional<unsigned> TokenEndOffset(const clang::SourceManager& sm, const clang::LangOptions& lang,
                                       clang::SourceLocation location);

// __ballot_sync, __ballot, __activemask, __match_any_sync, __match_all_sync: the calls whose result is a lane mask
// (64-bit in HIP); the warp-intrinsic table's ReturnsLaneMask (worker/translate/tables/warp_intrinsics.h).
bool IsBallotName(llvm::StringRef name);

// The locals each function assigns a lane mask apart from their declaration (`int mask; ... mask = votes;`), found
// with one pass over a function the first time one of its locals is asked about. Cleared for each AST (it keeps
// pointers into one).
class LaneMaskLocals {
 public:
  bool Assigned(const clang::VarDecl* var);
  void Clear() { by_function_.clear(); }

 private:
  std::map<const clang::FunctionDecl*, std::set<const clang::VarDecl*>> by_function_;
};

// A ballot result in `stmt`, directly or through a variable initialized or assigned from one (`__popc(mask &
// lanemask_lt)` counts the ballot too).
bool HoldsBallot(const clang::Stmt* stmt, LaneMaskLocals& lane_masks);

// The first store in `function` of a ballot result into 32-bit memory (`words[i / 32] = votes`: an array element,
// a field or a dereference, not a local variable): a bitmap of 32-bit words by design, whose 32s are word sizes.
// nullptr if none.
const clang::BinaryOperator* BallotStoredIn32Bits(const clang::FunctionDecl* function, clang::ASTContext& context);

// True when `function` works in 32-lane segments on its own: it computes a lane from a literal 32 of the thread
// index (`% 32`, `& 31`), every shuffle stays in its segment (an explicit width 32, or an xor mask below 32), and it
// uses no other warp-wide primitive (ballot, vote, match, reduce, tiles), no project helper that shuffles, nor
// warpSize. A 64-wide wavefront runs it as two segments, so its 32s (lane, loop bounds, lane 31, width) belong to the
// segments and stay as written.
bool ShufflesInSegmentsOf32(const clang::FunctionDecl* function, clang::ASTContext& context);
// What HB101 and HB104 say of such a function's 32s.
inline constexpr char kSegmentsOf32Reason[] =
    "; every shuffle of this function stays in its 32-lane segment (width 32, or xor masks below 32)";
inline constexpr char kSegmentsOf32Fix[] =
    "Left as written: the function works in 32-lane segments, which a 64-wide wavefront runs as two segments. Widen "
    "every 32 together (lane, bounds, shuffle width) only if a segment is meant to be the whole wavefront.";

// `x % 32` or `x & 31` of the thread index: a lane from a literal 32. With `or_warp_size`, `x % warpSize` and
// `x & (warpSize - 1)` count too.
bool IsLaneExpression(const clang::BinaryOperator& op, const clang::ASTContext& context, bool or_warp_size);

// The variable or field an lvalue expression names (`x`, `s.f`, `p->f`, `x[i]`'s base), or nullptr.
const clang::ValueDecl* NamedStorage(const clang::Expr* expr);

}  // namespace hipforge::translate::analyze
