"""install_python: the installed module imports from the staged site-packages alone, and the
same directory under /usr is on this interpreter's default sys.path (so that a /usr install, as
the Debian package makes, needs no PYTHONPATH).
Usage: python3 -I check_python.py STAGE PYTHON_INSTALL_DIR VERSION"""
import os
import sys
from fractions import Fraction as F

stage, install_dir, version = sys.argv[1:4]
site = os.path.join(stage, install_dir)
usr_site = os.path.join("/usr", install_dir)
assert usr_site in sys.path, f"{usr_site} is not on {sys.executable}'s sys.path {sys.path}"
# Only the staged copy: neither the build tree nor PYTHONPATH (-I ignores the environment).
sys.path.insert(0, site)
import corbin  # noqa: E402

assert os.path.dirname(corbin.__file__) == site, corbin.__file__
assert corbin.__version__ == version, corbin.__version__
# Values computed by the library: α at e^ε = 3, and the as-printed CorBinQ's PLDP ratio at d = 5
# (test_python's values).
assert corbin.alpha_of_exp_eps(3) == 2
assert corbin.pldp(2, 0, 1, 5, "as-printed") == F(24, 7)
print(f"import corbin {corbin.__version__} from {corbin.__file__}; {usr_site} is on sys.path")
