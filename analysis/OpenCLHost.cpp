//===- OpenCLHost.cpp - What the host code of an OpenCL program connects --===//
#include "analysis/OpenCLHost.h"
#include "analysis/AstUtil.h"
#include "analysis/UseClassifier.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace dlopt;

ClCall dlopt::classifyClCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return ClCall::None;
  StringRef Name = FD->getName();
  if (!Name.starts_with("cl"))
    return ClCall::None;
  return llvm::StringSwitch<ClCall>(Name)
      .Case("clCreateKernel", ClCall::CreateKernel)
      .Case("clCreateProgramWithSource", ClCall::CreateProgram)
      .Case("clCreateBuffer", ClCall::CreateBuffer)
      .Case("clEnqueueWriteBuffer", ClCall::WriteBuffer)
      .Case("clEnqueueReadBuffer", ClCall::ReadBuffer)
      .Case("clEnqueueCopyBuffer", ClCall::CopyBuffer)
      .Case("clEnqueueFillBuffer", ClCall::FillBuffer)
      .Case("clEnqueueMapBuffer", ClCall::MapBuffer)
      .Case("clEnqueueUnmapMemObject", ClCall::UnmapBuffer)
      .Case("clSetKernelArg", ClCall::SetKernelArg)
      .Case("clSetKernelArgSVMPointer", ClCall::SetKernelArgSvm)
      .Cases("clReleaseMemObject", "clRetainMemObject", ClCall::ReleaseBuffer)
      .Cases("clEnqueueWriteBufferRect", "clEnqueueReadBufferRect",
             "clEnqueueCopyBufferRect", "clCreateSubBuffer",
             ClCall::Unsupported)
      .Cases("clEnqueueMigrateMemObjects", "clGetMemObjectInfo",
             "clSetMemObjectDestructorCallback", ClCall::Unsupported)
      .Default(ClCall::None);
}

/// Whether \p T is spelled as the typedef \p Name (through any sugar).
static bool spelledAs(QualType T, StringRef Name) {
  for (;;) {
    const auto *TT = T->getAs<TypedefType>();
    if (!TT)
      return false;
    if (TT->getDecl()->getName() == Name)
      return true;
    T = TT->getDecl()->getUnderlyingType();
  }
}

bool dlopt::isClMem(QualType T) { return spelledAs(T, "cl_mem"); }

bool dlopt::isClKernel(QualType T) { return spelledAs(T, "cl_kernel"); }

std::vector<std::string> OpenCLHost::kernelNames(const ValueDecl *D) const {
  if (auto It = Kernels.find(D); It != Kernels.end())
    return It->second.empty() ? std::vector<std::string>{}
                              : std::vector<std::string>{It->second};
  auto It = KernelParameters.find(D);
  if (It == KernelParameters.end()) {
    if (std::string Symbol = holderSymbol(D); !Symbol.empty())
      return {Symbol};
    return {};
  }
  if (llvm::is_contained(It->second, std::string()))
    return {};
  return It->second;
}

std::string OpenCLHost::holderSymbol(const ValueDecl *D) {
  if (!D || !(isClKernel(D->getType()) || isClMem(D->getType())))
    return "";
  if (const auto *FD = dyn_cast<FieldDecl>(D)) {
    std::string Record = recordName(FD->getParent());
    return Record.empty() ? "" : "@" + Record + "." + FD->getNameAsString();
  }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (VD && VD->hasGlobalStorage() && VD->isExternallyVisible())
    return "@" + VD->getNameAsString();
  return "";
}

std::map<std::string, SourceLocation>
OpenCLHost::kernelArgumentSetters() const {
  std::map<std::string, SourceLocation> Out;
  for (const auto &Entry : KernelCalls)
    Out[Entry.getKey().str()] = Entry.getValue().front()->getBeginLoc();
  if (!UnknownKernelCalls.empty())
    Out["?"] = UnknownKernelCalls.front()->getBeginLoc();
  return Out;
}

std::vector<std::string> OpenCLHost::bufferHolders(const RecordDecl *RD) const {
  std::vector<std::string> Out;
  for (const auto &[D, B] : Buffers)
    if (std::string Symbol = holderSymbol(D); !Symbol.empty() && B.Record == RD)
      Out.push_back(Symbol);
  llvm::sort(Out);
  return Out;
}

bool OpenCLHost::knownBuffers(const std::vector<const ValueDecl *> &Holders) {
  if (!Known)
    return false;
  bool Any = false;
  for (const ValueDecl *D : Holders) {
    if (!D || Buffers.count(D))
      continue;
    auto It = Known->find(holderSymbol(D));
    if (It == Known->end())
      continue;
    for (const RecordDecl *RD : Named)
      if (recordName(RD) == It->second) {
        Buffers[D] = {RD, D->getLocation()};
        Any = true;
      }
  }
  return Any;
}

std::map<std::string, std::string> OpenCLHost::kernelHolders() const {
  std::map<std::string, std::string> Out;
  for (const auto &[D, Name] : Kernels)
    if (std::string Symbol = holderSymbol(D); !Symbol.empty() && !Name.empty())
      Out[Symbol] = Name;
  return Out;
}

OpenCLHost
OpenCLHost::forRecords(ASTContext &Ctx, const UseClassifier &Uses,
                       std::vector<const RecordDecl *> Records,
                       const std::map<std::string, std::string> *Known) {
  auto Set = std::make_shared<llvm::SmallPtrSet<const RecordDecl *, 4>>(
      Records.begin(), Records.end());
  OpenCLHost Host(
      Ctx, [Set](const RecordDecl *RD) { return Set->count(RD) > 0; },
      [&Uses, Records](const Expr *Size) {
        return Uses.recordCounted(Size, Records);
      },
      [&Uses](const Expr *Size, const RecordDecl *RD) {
        HandleUse Count;
        return Uses.elementCount(Size, RD, Count);
      });
  Host.Known = Known;
  Host.Named = std::move(Records);
  return Host;
}

const ValueDecl *OpenCLHost::holder(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return dyn_cast<FieldDecl>(ME->getMemberDecl());
  return nullptr;
}

namespace dlopt {

/// Finds the OpenCL calls and every reference to a variable or member.
class ClCallVisitor : public RecursiveASTVisitor<ClCallVisitor> {
public:
  explicit ClCallVisitor(OpenCLHost &Host) : Host(Host) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *FD = Call->getDirectCallee();
        FD && FD->getIdentifier() && FD->getName() == "clCreateUserEvent")
      Host.UserEvents = true;
    if (classifyClCall(Call) != ClCall::None &&
        !inSystemHeader(Host.Ctx.getSourceManager(), Call->getBeginLoc()))
      Host.Calls.push_back(Call);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    References.push_back(E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    References.push_back(E);
    return true;
  }
  /// Members and global variables: holders other files may create buffers
  /// into (OpenCLHost::knownBuffers), also where this file names them only
  /// in a header's declaration.
  bool VisitFieldDecl(FieldDecl *D) {
    Declared.push_back(D);
    return true;
  }
  bool VisitVarDecl(VarDecl *D) {
    if (D->hasGlobalStorage())
      Declared.push_back(D);
    return true;
  }
  OpenCLHost &Host;
  std::vector<const Expr *> References;
  std::vector<const ValueDecl *> Declared;
};

} // namespace dlopt

static bool isParenOrCast(const Expr *E) {
  return isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr>(E);
}

/// Where the value of \p Call is stored: a declaration's initializer (no
/// reference) or an assignment's left side.
static std::pair<const ValueDecl *, const Expr *> storedTo(ASTContext &Ctx,
                                                           const Expr *Call) {
  const Expr *Child;
  DynTypedNode Node = parentPast(Ctx, Call, Child, isParenOrCast);
  if (const auto *BO = Node.get<BinaryOperator>();
      BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Child)
    return {OpenCLHost::holder(BO->getLHS()),
            BO->getLHS()->IgnoreParenImpCasts()};
  if (const auto *VD = Node.get<VarDecl>())
    return {VD, nullptr};
  return {};
}

const RecordDecl *OpenCLHost::hostArrayRecord(const Expr *E) const {
  QualType T = E->IgnoreParenImpCasts()->getType();
  if (!T->isPointerType() && !T->isArrayType())
    return nullptr;
  const RecordDecl *RD =
      asRecord(QualType(T->getPointeeOrArrayElementType(), 0));
  return RD && IsCandidate(RD) ? RD : nullptr;
}

void OpenCLHost::createKernel(const CallExpr *Call, const ValueDecl *To) {
  if (!To)
    return;
  const auto *Name =
      dyn_cast<StringLiteral>(Call->getArg(1)->IgnoreParenImpCasts());
  // A holder given two names (one variable reused for two kernels) names
  // neither.
  std::string This = Name ? Name->getString().str() : "";
  Creations[To].push_back({Call, This});
  auto [It, New] = Kernels.try_emplace(To, This);
  if (!New && It->second != This)
    It->second.clear();
}

void OpenCLHost::createBuffer(const CallExpr *Call, const ValueDecl *To) {
  const RecordDecl *RD = RecordOfSize(Call->getArg(2));
  if (!RD)
    RD = hostArrayRecord(Call->getArg(3));
  if (!RD)
    return;
  if (!To) {
    Problems.push_back({RD, Call->getBeginLoc(),
                        "OpenCL buffer of '" + recordName(RD) +
                            "' elements not stored in a variable or member"});
    return;
  }
  Buffers[To] = {RD, Call->getBeginLoc()};
}

void OpenCLHost::transfer(const CallExpr *Call) {
  if (Call->getNumArgs() < 6)
    return;
  const RecordDecl *RD = hostArrayRecord(Call->getArg(5));
  const ValueDecl *Buffer = holder(Call->getArg(1));
  Connected.insert(Call->getArg(1)->IgnoreParenImpCasts());
  if (!RD)
    return;
  if (!Buffer) {
    Problems.push_back({RD, Call->getArg(1)->getExprLoc(),
                        "'" + recordName(RD) +
                            "' array copied to or from an OpenCL buffer that "
                            "is not a variable or member"});
    return;
  }
  // A buffer created from a byte count computed elsewhere gets its record
  // from what is copied into it.
  Buffers.try_emplace(Buffer, ClBuffer{RD, Call->getBeginLoc()});
}

/// clEnqueueCopyBuffer(q, src, dst, ...): both buffers hold the elements
/// of the one whose record is known (a buffer created from a byte count
/// computed elsewhere gets its record so).
void OpenCLHost::copy(const CallExpr *Call) {
  if (Call->getNumArgs() != 9)
    return;
  const ValueDecl *Src = holder(Call->getArg(1));
  const ValueDecl *Dst = holder(Call->getArg(2));
  Connected.insert(Call->getArg(1)->IgnoreParenImpCasts());
  Connected.insert(Call->getArg(2)->IgnoreParenImpCasts());
  const RecordDecl *RD = bufferRecord(Src);
  if (!RD)
    RD = bufferRecord(Dst);
  if (!RD)
    return;
  for (const ValueDecl *B : {Src, Dst})
    if (B)
      Buffers.try_emplace(B, ClBuffer{RD, Call->getBeginLoc()});
}

/// Whether the strings of clCreateProgramWithSource, \p Strings, are
/// literals of the host file: &src for `const char *src = "..."`, or an
/// array of such literals.
static bool isStringSource(const Expr *Strings) {
  const Expr *E = Strings->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const Expr *Init =
      VD && VD->getInit() ? VD->getInit()->IgnoreParenCasts() : nullptr;
  if (!Init)
    return false;
  if (isa<StringLiteral>(Init))
    return true;
  const auto *List = dyn_cast<InitListExpr>(Init);
  return List && List->getNumInits() > 0 &&
         llvm::all_of(List->inits(), [](const Expr *I) {
           return isa<StringLiteral>(I->IgnoreParenCasts());
         });
}

/// The single parent statement of \p S (through the declaration that \p S
/// initializes: `cl_int err = call;`), or null.
static const Stmt *parentStmt(ASTContext &Ctx, const Stmt *S) {
  DynTypedNodeList Parents = Ctx.getParents(*S);
  if (Parents.size() != 1)
    return nullptr;
  if (const auto *VD = Parents[0].get<VarDecl>()) {
    Parents = Ctx.getParents(*VD);
    if (Parents.size() != 1)
      return nullptr;
  }
  return Parents[0].get<Stmt>();
}

/// The effect of \p S on the counter \p V: applied to \p Value (nullopt:
/// unknown), stopping before \p Stop if \p S contains it. False if a
/// change of V cannot be followed (in a branch or loop, by a
/// non-constant, through its address).
static bool stepCounter(ASTContext &Ctx, const Stmt *S, const VarDecl *V,
                        const Expr *Stop, std::optional<int64_t> &Value,
                        int64_t &Base, bool &Stopped,
                        bool Conditional = false) {
  if (!S || Stopped)
    return true;
  if (S == Stop) {
    Stopped = true;
    return true;
  }
  auto IsV = [&](const Expr *E) {
    const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return D && D->getDecl() == V;
  };
  bool Changes = false;
  std::optional<int64_t> Next, NextBase;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && IsV(UO->getSubExpr())) {
    if (UO->isIncrementDecrementOp()) {
      Changes = true;
      if (Value)
        Next = *Value + (UO->isIncrementOp() ? 1 : -1);
    } else if (UO->getOpcode() == UO_AddrOf) {
      return false;
    }
  } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
             BO && BO->isAssignmentOp() && IsV(BO->getLHS())) {
    Changes = true;
    Expr::EvalResult R;
    if (!BO->getRHS()->EvaluateAsInt(R, Ctx))
      return false;
    int64_t C = R.Val.getInt().getExtValue();
    if (BO->getOpcode() == BO_Assign)
      Next = NextBase = C;
    else if (BO->getOpcode() == BO_AddAssign && Value)
      Next = *Value + C;
    else if (BO->getOpcode() != BO_AddAssign)
      return false;
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (D == V) {
        Expr::EvalResult R;
        if (!V->getInit() || !V->getInit()->EvaluateAsInt(R, Ctx))
          return false;
        Changes = true;
        Next = NextBase = R.Val.getInt().getExtValue();
      }
  }
  if (Changes) {
    if (Conditional)
      return false;
    Value = Next;
    if (NextBase)
      Base = *NextBase;
  }
  bool Once = runsOnce(Ctx, S);
  bool Branches = !Once && isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt,
                               CXXForRangeStmt, AbstractConditionalOperator>(S);
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp())
    Branches = true;
  // What runs first runs always: an if's or a ?:'s condition, a logical
  // operator's left side.
  const Stmt *First = nullptr;
  if (const auto *If = dyn_cast<IfStmt>(S))
    First = If->getCond();
  else if (const auto *CO = dyn_cast<AbstractConditionalOperator>(S))
    First = CO->getCond();
  else if (const auto *BO = dyn_cast<BinaryOperator>(S);
           BO && BO->isLogicalOp())
    First = BO->getLHS();
  for (const Stmt *Child : S->children())
    if (!stepCounter(Ctx, Child, V, Stop, Value, Base, Stopped,
                     Conditional || (Branches && Child != First)))
      return false;
  return true;
}

/// The value of a kernel argument index \p E: a constant, or a local
/// counter (`clSetKernelArg(k, a++, ...)`) started at a constant and
/// stepped in straight-line code of its block before this call.
std::optional<int64_t> OpenCLHost::argumentIndex(ASTContext &Ctx, const Expr *E,
                                                 int64_t *Base) {
  Expr::EvalResult R;
  if (E->EvaluateAsInt(R, Ctx)) {
    if (Base)
      *Base = R.Val.getInt().getExtValue();
    return R.Val.getInt().getExtValue();
  }
  const Expr *Counter = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Counter);
      UO && UO->getOpcode() == UO_PostInc)
    Counter = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *D = dyn_cast<DeclRefExpr>(Counter);
  const auto *V = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || !V->getType()->isIntegerType())
    return std::nullopt;
  // The block that declares the counter, or sets it to a constant before
  // the statement in it that holds this index (`a = 0;` in a loop's body);
  // no loop or branch may hold the call in between.
  const Stmt *S = E;
  const Stmt *Parent = parentStmt(Ctx, S);
  for (; Parent; S = Parent, Parent = parentStmt(Ctx, S)) {
    if (const auto *Block = dyn_cast<CompoundStmt>(Parent)) {
      bool Declares = llvm::any_of(Block->body(), [&](const Stmt *C) {
        const auto *DS = dyn_cast<DeclStmt>(C);
        return DS && llvm::is_contained(DS->decls(), V);
      });
      bool Resets = false;
      for (const Stmt *C : Block->body()) {
        if (C == S)
          break;
        const auto *Set = dyn_cast<BinaryOperator>(C);
        const auto *To =
            Set ? dyn_cast<DeclRefExpr>(Set->getLHS()->IgnoreParenImpCasts())
                : nullptr;
        Resets |= To && To->getDecl() == V && Set->getOpcode() == BO_Assign &&
                  Set->getRHS()->isIntegerConstantExpr(Ctx);
      }
      if (Declares || Resets)
        break;
      continue;
    }
    if (runsOnce(Ctx, Parent))
      continue;
    if (const auto *If = dyn_cast<IfStmt>(Parent); If && If->getCond() == S)
      continue; // The condition runs once, always: CHECK(call) macros.
    if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt,
            AbstractConditionalOperator>(Parent))
      return std::nullopt;
    if (const auto *BO = dyn_cast<BinaryOperator>(Parent);
        BO && BO->isLogicalOp() && BO->getLHS() != S)
      return std::nullopt;
  }
  if (!Parent)
    return std::nullopt;
  std::optional<int64_t> Value;
  int64_t Start = 0;
  bool Stopped = false;
  for (const Stmt *C : cast<CompoundStmt>(Parent)->body()) {
    if (!stepCounter(Ctx, C, V, E, Value, Start, Stopped))
      return std::nullopt;
    if (Stopped || C == S)
      break;
  }
  if (Base)
    *Base = Start;
  return Stopped ? Value : std::nullopt;
}

const Expr *OpenCLHost::addressedValue(const CallExpr *Call) {
  const auto *Address =
      dyn_cast<UnaryOperator>(Call->getArg(3)->IgnoreParenCasts());
  return Address && Address->getOpcode() == UO_AddrOf ? Address->getSubExpr()
                                                      : nullptr;
}

/// clSetKernelArgSVMPointer(kernel, index, pointer): an argument set to
/// shared virtual memory, which the rewrite does not follow; a kernel that
/// takes a record's buffer refuses it (WholeProgram.cpp).
void OpenCLHost::setKernelArgSvm(const CallExpr *Call) {
  const ValueDecl *Kernel =
      Call->getNumArgs() ? holder(Call->getArg(0)) : nullptr;
  std::vector<std::string> Names;
  if (Kernel)
    Names = kernelNamesAt(Kernel, Call);
  if (Names.empty())
    Names.push_back("?");
  for (const std::string &Name : Names)
    SvmKernelCalls.try_emplace(Name, Call->getBeginLoc());
}

void OpenCLHost::setKernelArg(const CallExpr *Call) {
  if (Call->getNumArgs() != 4)
    return;
  const ValueDecl *Kernel = holder(Call->getArg(0));
  std::vector<std::string> Names;
  if (Kernel)
    Names = kernelNamesAt(Kernel, Call);
  for (const std::string &Name : Names)
    KernelCalls[Name].push_back(Call);
  if (Names.empty())
    UnknownKernelCalls.push_back(Call);
  const Expr *Value = addressedValue(Call);
  const ValueDecl *Buffer = Value ? holder(Value) : nullptr;
  if (Buffer)
    Connected.insert(Value->IgnoreParenImpCasts());
  auto It = Buffer ? Buffers.find(Buffer) : Buffers.end();
  if (It == Buffers.end())
    return; // Not a record's buffer (a scalar, another buffer).
  ClKernelArgument A;
  A.Record = It->second.Record;
  A.Buffer = Buffer;
  A.At = Call->getBeginLoc();
  A.Call = Call;
  std::string Buf = "OpenCL buffer '" + Buffer->getNameAsString() + "'";
  if (Names.empty()) {
    if (auto Created = Kernel ? Creations.find(Kernel) : Creations.end();
        Created != Creations.end() && Created->second.size() > 1) {
      Problems.push_back(
          {A.Record, A.At,
           Buf + " bound to the kernel held in '" + Kernel->getNameAsString() +
               "', which this file creates kernel after kernel into, and no "
               "creation is sure to be the one held here (it is in a branch "
               "or a loop the binding is outside of, a later one in a loop "
               "around the binding may be, it is in another function, or the "
               "holder is written otherwise)"});
      return;
    }
    Problems.push_back(
        {A.Record, A.At,
         Buf + (isa_and_nonnull<ParmVarDecl>(Kernel)
                    ? " bound to the kernel parameter '" +
                          Kernel->getNameAsString() +
                          "', which not every call gives a kernel created "
                          "from a string literal in this file (or other "
                          "files may call its function)"
                    : std::string(" bound to a kernel not created from a "
                                  "string literal by clCreateKernel in this "
                                  "file"))});
    return;
  }
  std::optional<int64_t> Index = argumentIndex(Ctx, Call->getArg(1));
  // One problem per call, naming every kernel it may set.
  if (!Index || *Index < 0) {
    std::string Kernels;
    for (size_t K = 0; K < Names.size(); ++K)
      Kernels += (K == 0                  ? "'"
                  : K + 1 == Names.size() ? "' and '"
                                          : "', '") +
                 Names[K];
    Problems.push_back(
        {A.Record, Call->getArg(1)->getExprLoc(),
         Buf + " bound to an argument of kernel" +
             (Names.size() > 1 ? "s " : " ") + Kernels +
             "' whose index is neither a constant nor a counter stepped in "
             "straight-line code"});
    A.IndexKnown = false;
  } else {
    A.Index = static_cast<unsigned>(*Index);
  }
  // One binding per kernel the call may set (several through a parameter).
  for (const std::string &Name : Names) {
    A.Kernel = Name;
    Arguments.push_back(A);
  }
}

bool OpenCLHost::collect() {
  // A file that never spells cl_mem includes no OpenCL header: no calls,
  // no buffers, and no walk of its AST.
  if (Ctx.Idents.find("cl_mem") == Ctx.Idents.end())
    return false;
  ClCallVisitor V(*this);
  V.TraverseAST(Ctx);
  // A file without OpenCL calls still declares (in a header) the holders
  // of buffers others create: their declarations change with the layout.
  std::vector<const ValueDecl *> Holders(V.Declared);
  for (const Expr *E : V.References)
    Holders.push_back(holder(E));
  if (!knownBuffers(Holders) && Calls.empty())
    return false;
  for (const CallExpr *Call : Calls) {
    auto [To, Ref] = storedTo(Ctx, Call);
    if (Ref)
      Connected.insert(Ref);
    if (classifyClCall(Call) == ClCall::CreateKernel && Call->getNumArgs() == 3)
      createKernel(Call, To);
    else if (classifyClCall(Call) == ClCall::CreateBuffer &&
             Call->getNumArgs() == 5) {
      createBuffer(Call, To);
      CreatedIn[Call] = To;
    }
  }
  for (const CallExpr *Call : Calls)
    if (ClCall K = classifyClCall(Call);
        K == ClCall::WriteBuffer || K == ClCall::ReadBuffer)
      transfer(Call);
    else if (K == ClCall::CreateProgram && Call->getNumArgs() == 5 &&
             isStringSource(Call->getArg(2)))
      EmbeddedKernels = Call->getBeginLoc();
  for (const CallExpr *Call : Calls)
    if (classifyClCall(Call) == ClCall::CopyBuffer)
      copy(Call);
  passedBuffers(V.References);
  passedKernels(V.References);
  for (const CallExpr *Call : Calls)
    if (classifyClCall(Call) == ClCall::SetKernelArg)
      setKernelArg(Call);
    else if (classifyClCall(Call) == ClCall::SetKernelArgSvm)
      setKernelArgSvm(Call);
  for (const CallExpr *Call : Calls)
    if (ClCall K = classifyClCall(Call);
        K == ClCall::ReleaseBuffer && Call->getNumArgs() == 1)
      Connected.insert(Call->getArg(0)->IgnoreParenImpCasts());
    else if ((K == ClCall::FillBuffer && Call->getNumArgs() == 9) ||
             (K == ClCall::MapBuffer && Call->getNumArgs() == 10) ||
             (K == ClCall::UnmapBuffer && Call->getNumArgs() == 6))
      Connected.insert(Call->getArg(1)->IgnoreParenImpCasts());
  checkBufferUses(V.References);
  collectUses();
  return true;
}

/// Whether the reference \p E to a buffer only tests it for null: !buf,
/// buf == NULL, if (buf).
static bool isNullTest(ASTContext &Ctx, const Expr *E) {
  const Expr *Child;
  DynTypedNode Node = parentPast(Ctx, E, Child, [](const Expr *P) {
    return isa<ParenExpr, ImplicitCastExpr>(P);
  });
  auto IsNull = [&](const Expr *X) {
    return X->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNotNull);
  };
  if (const auto *UO = Node.get<UnaryOperator>())
    return UO->getOpcode() == UO_LNot;
  if (const auto *BO = Node.get<BinaryOperator>())
    return BO->isEqualityOp() && (IsNull(BO->getLHS()) || IsNull(BO->getRHS()));
  if (const auto *If = Node.get<IfStmt>())
    return If->getCond() == Child;
  return false;
}

/// The call that \p E is an argument of (through parentheses, casts, &
/// and *), or null.
static const CallExpr *argumentOf(ASTContext &Ctx, const Expr *E) {
  const Expr *Child;
  return parentPast(Ctx, E, Child,
                    [](const Expr *P) {
                      return isParenOrCast(P) || isa<UnaryOperator>(P);
                    })
      .get<CallExpr>();
}

/// A record's buffer anywhere but in the calls above (passed to a function
/// of the program, copied into another variable, mapped) is not followed:
/// the record is refused there.
void OpenCLHost::checkBufferUses(const std::vector<const Expr *> &References) {
  for (const Expr *E : References) {
    const RecordDecl *RD = bufferRecord(holder(E));
    if (!RD || Connected.count(E))
      continue;
    // A null test becomes one of the first array's buffer: spelled in a
    // macro's body, it is not followed.
    if (isNullTest(Ctx, E) && spelledInFile(Ctx, E->getSourceRange())) {
      ClUse U;
      U.Kind = ClUseKind::NullTest;
      U.Record = RD;
      U.Ref = E;
      Uses.push_back(std::move(U));
      continue;
    }
    std::string Why = "OpenCL buffer '" + holder(E)->getNameAsString() +
                      "' of '" + recordName(RD) + "' elements ";
    const CallExpr *In = argumentOf(Ctx, E);
    const FunctionDecl *Callee = In ? In->getDirectCallee() : nullptr;
    Why += Callee ? "passed to '" + Callee->getNameAsString() +
                        "' (only clCreateBuffer, clEnqueueWriteBuffer, "
                        "clEnqueueReadBuffer, clEnqueueCopyBuffer, "
                        "clEnqueueFillBuffer, clEnqueueMapBuffer, "
                        "clEnqueueUnmapMemObject, clSetKernelArg and "
                        "clReleaseMemObject are followed)"
                  : std::string("used where the analysis does not follow it");
    Problems.push_back({RD, E->getExprLoc(), Why});
  }
}

const RecordDecl *OpenCLHost::bufferRecord(const ValueDecl *D) const {
  auto It = Buffers.find(D);
  return It == Buffers.end() ? nullptr : It->second.Record;
}
