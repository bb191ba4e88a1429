#include "sweep/run_attempt.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "configs/config_loader.h"
#include "ground/error.h"
#include "sweep/results_reader.h"

namespace sassim::sweep {

namespace fs = std::filesystem;

std::string self_executable() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec)
    throw Error(fmt::format("cannot find the sassim binary: /proc/self/exe: {}", ec.message()));
  return exe.string();
}

std::vector<std::string> run_arguments(const SweepPlan& plan, const SweepRun& run,
                                       const std::string& executable) {
  std::vector<std::string> argv = {executable, "run", plan.traces[run.trace].path.string(),
                                   "--config", plan.base_config_arg};
  for (const std::string& assignment : plan.points[run.point].overrides) {
    argv.push_back("--set");
    argv.push_back(assignment);
  }
  for (const char* word : {"--out", kResultsName, "-q", "--threads"}) argv.emplace_back(word);
  argv.push_back(std::to_string(plan.threads_per_run));
  if (plan.sample != "off") {
    argv.emplace_back("--sample");
    argv.push_back(plan.sample);
  }
  return argv;
}

std::string shell_quoted(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& word : words) {
    if (!line.empty()) line += ' ';
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789_-+=./:,@%") == std::string::npos;
    if (plain) {
      line += word;
      continue;
    }
    line += '\'';
    for (const char c : word) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

std::string describe_wait_status(int wait_status) {
  if (WIFEXITED(wait_status)) return fmt::format("exit status {}", WEXITSTATUS(wait_status));
  if (WIFSIGNALED(wait_status)) {
    return fmt::format("killed by signal {} ({})", WTERMSIG(wait_status),
                       strsignal(WTERMSIG(wait_status)));
  }
  return fmt::format("wait status {}", wait_status);
}

RunAttempt::RunAttempt(const SweepPlan& plan, const SweepLayout& layout, const SweepRun& run,
                       const std::string& executable)
    : plan_(plan),
      layout_(layout),
      run_(run),
      argv_(run_arguments(plan, run, executable)),
      tmp_(make_locked_temp_dir(layout.tmp_dir(), run.id + ".")) {
  write_file_durably(tmp_.path / "config.txtpb", config::to_text(plan.points[run.point].config));
  write_file_durably(tmp_.path / "command.txt",
                     fmt::format("# run in this folder\n{}\n", shell_quoted(argv_)));
}

pid_t RunAttempt::start() {
  const fs::path log = tmp_.path / kLogName;
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    throw Error(fmt::format("cannot create '{}': {}", log.string(), std::strerror(errno)));
  }
  std::vector<char*> argv;
  for (std::string& word : argv_) argv.push_back(word.data());
  argv.push_back(nullptr);
  const std::string dir = tmp_.path.string();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log_fd);
    throw Error(fmt::format("cannot start a run: fork: {}", std::strerror(errno)));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(128 + SIGKILL);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, 0);
    ::dup2(log_fd, 1);
    ::dup2(log_fd, 2);
    if (::chdir(dir.c_str()) == 0) ::execv(argv[0], argv.data());
    const char* message = "sassim sweep: cannot start the run: ";
    [[maybe_unused]] ssize_t n = ::write(2, message, std::strlen(message));
    const char* reason = std::strerror(errno);
    n = ::write(2, reason, std::strlen(reason));
    n = ::write(2, "\n", 1);
    ::_exit(127);
  }
  ::close(log_fd);
  return pid;
}

RunOutcome RunAttempt::finish(int wait_status) {
  const std::string id = run_.id;
  std::error_code ec;
  std::string failure;
  if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0) {
    failure = describe_wait_status(wait_status);
  } else if (!results_file_complete(tmp_.path / kResultsName)) {
    failure = fmt::format("exit status 0 but {} is missing or unreadable", kResultsName);
  }
  if (failure.empty()) {
    fsync_path(tmp_.path / kResultsName);
    fsync_path(tmp_.path / kLogName);
    write_file_durably(tmp_.path / kMarkerName, run_record(plan_, run_));
    fs::create_directories(layout_.runs_dir(), ec);
    if (!rename_dir_no_replace(tmp_.path, layout_.run_dir(id))) {
      // Another attempt (a Slurm task of an earlier submission) finished it first.
      const auto existing = read_text_file(layout_.marker(id));
      if (existing != run_record(plan_, run_)) {
        throw Error(fmt::format("{} exists and is not this run's finished result; move it away",
                                layout_.run_dir(id).string()));
      }
      fs::remove_all(tmp_.path, ec);
    }
    fs::remove_all(layout_.failed_dir(id), ec);
    return {true, "", layout_.run_dir(id) / kLogName};
  }
  write_file_durably(tmp_.path / kExitStatusName, failure + "\n");
  fs::create_directories(layout_.failed_dir(id).parent_path(), ec);
  fs::remove_all(layout_.failed_dir(id), ec);
  if (!rename_dir_no_replace(tmp_.path, layout_.failed_dir(id))) {
    return {false, failure, tmp_.path / kLogName};
  }
  return {false, failure, layout_.failed_dir(id) / kLogName};
}

}  // namespace sassim::sweep
