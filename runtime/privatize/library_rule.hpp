// SPDX-License-Identifier: Apache-2.0
// Which shared libraries have their state privatized (runtime.privatize_libs). The rule:
//  - the C and C++ runtimes, the loader and simmpi's own libraries never are: simmpi itself
//    uses their state between the ranks' calls (libc, ld-linux, libm, libstdc++, libgcc_s,
//    libgfortran, libquadmath, libgomp, libsimmpi...);
//  - libraries whose real path lies under the distribution's directories (/lib, /lib64,
//    /usr/lib, /usr/lib64) are not, unless the key names them;
//  - every other library the program brings (its own build tree, /usr/local, /opt, $HOME...)
//    is, unless the key excludes it with a leading '-'.
// The key is a comma-separated list of library names: a name matches the file of that name and
// its versions ("libfoo" matches libfoo.so and libfoo.so.1.2, "libfoo.so.1" libfoo.so.1 and
// libfoo.so.1.2 but not libfoo.so.10); a path matches that file.
#pragma once

#include <string>
#include <vector>

namespace simmpi::runtime {

class LibraryRule {
 public:
  enum class Verdict {
    Private,   // its state is privatized
    Shared,    // a system library, shared by the ranks as designed
    Excluded,  // the program's, but the key excluded it
    Refused,   // the key asked for it, but it cannot be privatized
  };

  LibraryRule() = default;
  // Throws ConfigError for an empty name or a name that is not a library's.
  explicit LibraryRule(const std::string& spec);

  // `path` as the loader reports it (dl_iterate_phdr); `why` gets the reason of a Refused.
  Verdict classify(const std::string& path, std::string& why) const;

 private:
  std::vector<std::string> include_;
  std::vector<std::string> exclude_;
};

}  // namespace simmpi::runtime
