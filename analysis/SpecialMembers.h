//===- SpecialMembers.h - Special members that act as the implicit ones -*- C++
//-*-===//
//
// A value class (the 2-D vector of a mesh code) often spells out the
// special members the compiler would have made: a copy constructor that
// copies each field, an assignment that assigns each one and returns
// *this, an empty destructor. Moving its fields into the generated records
// keeps the program's meaning while these do only that, so the analysis
// treats them as it treats the implicit ones. A default constructor that
// zeroes every field (PENNANT's double2) acts as value-initialization:
// arrays of such elements are made zeroed.
//
//===----------------------------------------------------------------------===//
#ifndef DLOPT_ANALYSIS_SPECIALMEMBERS_H
#define DLOPT_ANALYSIS_SPECIALMEMBERS_H

#include "clang/AST/DeclCXX.h"

namespace dlopt {

/// Whether \p M, a special member, does what the implicit one would: a copy
/// or move constructor whose initializers copy every field from the same
/// field of its argument and whose body is empty; a copy or move assignment
/// whose body assigns every field from the same field of its argument and
/// returns *this; a default constructor or destructor with an empty body
/// and no initializers. Trivial and defaulted members count too.
bool actsAsImplicit(const clang::CXXMethodDecl *M);

/// Whether \p C, a default constructor, sets every field (each of scalar
/// type) to zero and does nothing else: `double2() : x(0.), y(0.) {}`, or
/// an implicit or defaulted one whose fields' default member initializers
/// are all zero. An array of such elements made by new[] or a definition
/// is zero-filled, as calloc would leave the arrays of the new layout.
bool zeroFills(const clang::CXXConstructorDecl *C);

/// Whether field \p F, of scalar type, has a default member initializer
/// that sets it to zero as calloc would (0, 0.0, a null pointer, `{}`).
bool defaultMemberInitializerZeroes(const clang::FieldDecl *F);

/// Whether default-constructing an element of \p RD zero-fills it (its
/// default constructor zeroFills).
bool defaultConstructionZeroes(const clang::CXXRecordDecl *RD);

/// A constructor of \p RD that sets each field from its parameter of the
/// same position and does nothing else (`Body(double x, double y) : x(x),
/// y(y) {}`, every field of scalar type), where \p RD has no default
/// constructor: an element of the new layout is built with it from its
/// fields. Null if there is none (or a default constructor).
const clang::CXXConstructorDecl *
fieldwiseConstructor(const clang::CXXRecordDecl *RD);

} // namespace dlopt

#endif
