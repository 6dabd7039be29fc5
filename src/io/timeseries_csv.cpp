// TimeseriesCsvWriter: timeseries.csv streamed into its temporary file, one
// flushed row at a time, and renamed into place by commit().
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/csv_text.hpp"
#include "number_format.hpp"
#include "voltaic/io/output_writers.hpp"

namespace voltaic::io {

namespace {

struct CloseFile {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, CloseFile>;

}  // namespace

struct TimeseriesCsvWriter::Impl {
  Impl(const std::string& path, std::size_t column_count) : target(path), columns(column_count) {}

  AtomicFile target;  // declared first: removes the temporary after `stream` closed it
  FilePtr stream;
  std::size_t columns = 0;
  bool committed = false;
  std::string line;  // reused for every row

  [[noreturn]] void fail(const std::string& operation, const char* where, int error) const {
    throw FileError(operation, where,
                    "'" + target.path() + "': cannot " + operation + " its temporary '" + target.temporary_path() +
                        "': " + system_reason(error));
  }

  /// Writes `text` and flushes it, so that a run that dies leaves whole rows.
  void write_line(const std::string& text, const char* where) {
    if (std::fwrite(text.data(), 1, text.size(), stream.get()) != text.size() || std::fflush(stream.get()) != 0)
      fail("write", where, errno);
  }

  void require_open(const char* where) const {
    if (!stream)
      throw FileError("write", where,
                      "'" + target.path() + "': the writer is " + (committed ? "committed" : "closed after an error"));
  }
};

TimeseriesCsvWriter::TimeseriesCsvWriter(const std::string& path, std::vector<std::string> columns)
    : impl_(std::make_unique<Impl>(path, columns.size())) {
  if (columns.empty())
    throw InvalidArgument("timeseries columns", "TimeseriesCsvWriter", "'" + path + "': no columns to write");
  impl_->stream.reset(std::fopen(impl_->target.temporary_path().c_str(), "wb"));
  if (!impl_->stream) impl_->fail("create", "TimeseriesCsvWriter", errno);
  impl_->write_line(csv_header_line(columns), "TimeseriesCsvWriter");
}

TimeseriesCsvWriter::~TimeseriesCsvWriter() = default;

void TimeseriesCsvWriter::append(const std::vector<double>& row) {
  impl_->require_open("TimeseriesCsvWriter::append");
  if (row.size() != impl_->columns)
    throw SizeMismatch("timeseries row", "TimeseriesCsvWriter::append",
                       "'" + impl_->target.path() + "': a row of " + std::to_string(row.size()) + " values for " +
                           std::to_string(impl_->columns) + " columns");
  std::string& line = impl_->line;
  line.clear();
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (i > 0) line += ',';
    append_double(line, row[i]);
  }
  line += '\n';
  try {
    impl_->write_line(line, "TimeseriesCsvWriter::append");
  } catch (...) {
    impl_->stream.reset();  // a partial row may be in the file: accept no more
    throw;
  }
}

void TimeseriesCsvWriter::commit() {
  impl_->require_open("TimeseriesCsvWriter::commit");
  // fclose reports the errors of the last write-back; the file stays
  // uncommitted (and is removed by the destructor) if it fails.
  const bool closed = std::fclose(impl_->stream.release()) == 0;
  if (!closed) impl_->fail("close", "TimeseriesCsvWriter::commit", errno);
  impl_->target.commit();
  impl_->committed = true;
}

}  // namespace voltaic::io
