// expect: runtime_error
require("child_process").execSync("touch /tmp/referee-pwned");
