// SPDX-License-Identifier: Apache-2.0
// runtime.privatize_libs: which libraries are the program's (library_rule.hpp). The paths need
// not exist: a path that does not resolve is judged as written.
#include "runtime/privatize/library_rule.hpp"

#include <gtest/gtest.h>

#include "runtime/core/error.hpp"

namespace simmpi::runtime {
namespace {

using V = LibraryRule::Verdict;

V verdict(const LibraryRule& rule, const std::string& path) {
  std::string why;
  return rule.classify(path, why);
}

TEST(LibraryRule, DefaultPrivatizesTheProgramsOwnLibrariesOnly) {
  LibraryRule rule("");
  EXPECT_EQ(verdict(rule, "/home/u/app/build/libsolver.so"), V::Private);
  EXPECT_EQ(verdict(rule, "/opt/petsc/lib/libpetsc.so.3.18"), V::Private);
  EXPECT_EQ(verdict(rule, "/usr/local/lib/libhdf5.so.200"), V::Private);
  // The distribution's directories, the runtimes, simmpi's own, the vdso and the executable.
  EXPECT_EQ(verdict(rule, "/usr/lib/x86_64-linux-gnu/libhdf5.so.200"), V::Shared);
  EXPECT_EQ(verdict(rule, "/lib64/libz.so.1"), V::Shared);
  EXPECT_EQ(verdict(rule, "/opt/gcc/lib64/libstdc++.so.6"), V::Shared);
  EXPECT_EQ(verdict(rule, "/opt/gcc/lib64/libgfortran.so.5"), V::Shared);
  EXPECT_EQ(verdict(rule, "/home/u/simmpi/build/lib/libsimmpi.so"), V::Shared);
  EXPECT_EQ(verdict(rule, "linux-vdso.so.1"), V::Shared);
  EXPECT_EQ(verdict(rule, ""), V::Shared);
  // A name that merely starts like a runtime's is not one.
  EXPECT_EQ(verdict(rule, "/opt/x/libcrypto.so.3"), V::Private);
  EXPECT_EQ(verdict(rule, "/opt/x/libmetis.so"), V::Private);
}

TEST(LibraryRule, KeyAddsAndExcludesByNameOrPath) {
  LibraryRule rule(" libhdf5 , -libsolver.so.2,-/opt/x/libtrace.so, libz.so.1");
  EXPECT_EQ(verdict(rule, "/usr/lib/x86_64-linux-gnu/libhdf5.so.200"), V::Private);
  EXPECT_EQ(verdict(rule, "/usr/lib/x86_64-linux-gnu/libhdf5_hl.so.200"), V::Shared);
  EXPECT_EQ(verdict(rule, "/lib64/libz.so.1"), V::Private);
  EXPECT_EQ(verdict(rule, "/lib64/libz.so.1.2"), V::Private);  // a longer version of libz.so.1
  EXPECT_EQ(verdict(rule, "/lib64/libz.so.10"), V::Shared);
  EXPECT_EQ(verdict(rule, "/home/u/libsolver.so.2"), V::Excluded);
  EXPECT_EQ(verdict(rule, "/home/u/libsolver.so.3"), V::Private);
  EXPECT_EQ(verdict(rule, "/opt/x/libtrace.so"), V::Excluded);
  EXPECT_EQ(verdict(rule, "/opt/y/libtrace.so"), V::Private);
}

TEST(LibraryRule, RuntimesNamedByTheKeyAreRefusedWithAReason) {
  LibraryRule rule("libc,libstdc++,libsimmpi");
  std::string why;
  EXPECT_EQ(rule.classify("/lib/x86_64-linux-gnu/libc.so.6", why), V::Refused);
  EXPECT_NE(why.find("runtime.privatize_libs names it"), std::string::npos) << why;
  EXPECT_EQ(verdict(rule, "/lib/x86_64-linux-gnu/libstdc++.so.6"), V::Refused);
  EXPECT_EQ(verdict(rule, "/build/lib/libsimmpi.so"), V::Refused);
  EXPECT_EQ(verdict(rule, "/lib/x86_64-linux-gnu/libm.so.6"), V::Shared);  // not named
}

TEST(LibraryRule, BadListsAreConfigErrors) {
  EXPECT_THROW(LibraryRule("libfoo,,libbar"), ConfigError);
  EXPECT_THROW(LibraryRule("libfoo,"), ConfigError);
  EXPECT_THROW(LibraryRule("-"), ConfigError);
  EXPECT_THROW(LibraryRule("lib foo"), ConfigError);
  EXPECT_NO_THROW(LibraryRule("  "));
}

}  // namespace
}  // namespace simmpi::runtime
