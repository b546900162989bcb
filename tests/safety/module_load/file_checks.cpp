// SPDX-License-Identifier: MIT
// hipModuleLoad on paths that hold no code object must return at once with an
// error: a FIFO (would block), a directory, /dev/zero (never ends), an empty
// file, a sparse file larger than the cap; a missing path is hipErrorFileNotFound.
#include "guarded_image.hpp"
#include "hip_test.hpp"

#include <weft/codeobj/image.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace {

struct TempDir {
  std::string path;
  TempDir() {
    char name[] = "/tmp/weft_safety_XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~TempDir() {
    for (const char* f : {"/fifo", "/empty", "/sparse", "/dir"}) {
      ::unlink((path + f).c_str());
      ::rmdir((path + f).c_str());
    }
    ::rmdir(path.c_str());
  }
};

}  // namespace

TEST_CASE("Safety_hipModuleLoad_NotACodeObjectFile") {
  TempDir tmp;
  hipModule_t m = nullptr;
  HIP_CHECK_ERROR(hipModuleLoad(&m, (tmp.path + "/missing").c_str()), hipErrorFileNotFound);

  const std::string fifo = tmp.path + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  HIP_CHECK_ERROR(hipModuleLoad(&m, fifo.c_str()), hipErrorInvalidImage);

  const std::string dir = tmp.path + "/dir";
  REQUIRE(mkdir(dir.c_str(), 0700) == 0);
  HIP_CHECK_ERROR(hipModuleLoad(&m, dir.c_str()), hipErrorInvalidImage);

  HIP_CHECK_ERROR(hipModuleLoad(&m, "/dev/zero"), hipErrorInvalidImage);

  const std::string empty = tmp.path + "/empty";
  int fd = ::open(empty.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
  REQUIRE(fd >= 0);
  ::close(fd);
  HIP_CHECK_ERROR(hipModuleLoad(&m, empty.c_str()), hipErrorInvalidImage);

  // Starts like a real code object, then holes up to one byte past the cap.
  const std::string sparse = tmp.path + "/sparse";
  fd = ::open(sparse.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
  REQUIRE(fd >= 0);
  auto so = safety::read_file(WEFT_TEST_CPU_OBJECT);
  REQUIRE(::write(fd, so.data(), so.size()) == ssize_t(so.size()));
  REQUIRE(::ftruncate(fd, off_t(weft::codeobj::kMaxImageSize + 1)) == 0);
  ::close(fd);
  HIP_CHECK_ERROR(hipModuleLoad(&m, sparse.c_str()), hipErrorInvalidImage);
  CHECK(m == nullptr);

  // A real file is still fine.
  hipError_t rc = hipModuleLoad(&m, WEFT_TEST_CPU_OBJECT);
  if (rc == hipErrorNoBinaryForGpu) return;  // device cannot run x86_64 code objects
  HIP_CHECK(rc);
  HIP_CHECK(hipModuleUnload(m));
}
