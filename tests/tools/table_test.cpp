// Tables and times as the tools print them.
#include "tools/common/table.hpp"

#include <gtest/gtest.h>

#include "tools/common/progress.hpp"
#include "tools/common/times.hpp"

namespace {

TEST(Table, PadsColumnsAlignsNumbersAndTrimsLineEnds) {
  scr::tools::Table t({"ID", "NAME", "CUR"});
  t.align_right(0);
  t.add({"4", "step.40", "*"});
  t.add({"12", "x", ""});
  EXPECT_EQ(
      "ID  NAME     CUR\n"
      " 4  step.40  *\n"
      "12  x\n",
      t.render());
}

TEST(Times, DurationsUseTheTwoLargestUnits) {
  using scr::tools::duration_words;
  EXPECT_EQ("0 s", duration_words(0));
  EXPECT_EQ("45 s", duration_words(45));
  EXPECT_EQ("1 min 5 s", duration_words(65));
  EXPECT_EQ("2 h", duration_words(7205));
  EXPECT_EQ("1 d 1 h", duration_words(90000));
  EXPECT_EQ("2 min", duration_words(-120));
}

TEST(Progress, QuietForShortWorkThenReportsRateAndTimeLeft) {
  std::FILE* quiet_out = std::tmpfile();
  {
    scr::tools::Progress p("verifying x", 100, quiet_out, 3600);
    p.add(100);
  }
  EXPECT_EQ(0, std::ftell(quiet_out));
  std::fclose(quiet_out);

  std::FILE* out = std::tmpfile();
  {
    scr::tools::Progress p("verifying x", 2048, out, 0);
    p.add(1024);
  }
  std::rewind(out);
  char buf[512] = {0};
  size_t n = std::fread(buf, 1, sizeof buf - 1, out);
  std::fclose(out);
  std::string text(buf, n);
  EXPECT_NE(std::string::npos, text.find("verifying x: 1.0 KiB of 2.0 KiB (50%), ")) << text;
  EXPECT_NE(std::string::npos, text.find("/s")) << text;
  EXPECT_NE(std::string::npos, text.find(", done in ")) << text;
}

}  // namespace
