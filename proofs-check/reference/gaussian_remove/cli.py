"""The corbin CLI as a black box, and the options every part takes.

The binary is the one the environment variable CORBIN names; without it, build/analysis/corbin
under the repository root (this folder is proofs-check/reference/gaussian_remove, three levels
below the root)."""
import subprocess, json, os, sys, argparse, mpmath as mp
ROOT=os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)),'..','..','..'))
CORBIN=os.environ.get('CORBIN') or os.path.join(ROOT,'build','analysis','corbin')
def corbin(args):
    cmd=[CORBIN,'account','--mechanism','gaussian','--calibration-delta','1e-5','--neighbours','remove','--json']+[str(a) for a in args]
    try:
        r=subprocess.run(cmd,capture_output=True,text=True)
    except OSError as e:
        sys.exit('cannot run the corbin CLI %r (%s); set CORBIN to the binary'%(CORBIN,e))
    if r.returncode!=0:
        return {'_error':r.stderr.strip()[:500],'_cmd':' '.join(cmd)}
    d=json.loads(r.stdout); d['_cmd']=' '.join(cmd); d['_stderr']=r.stderr.strip()
    return d
def num(s):
    if s is None: return None
    if s=='infinite': return mp.inf
    if '/' in s:
        a,b=s.split('/'); return mp.mpf(a)/mp.mpf(b)
    return mp.mpf(s)

class _Tee:
    """stdout to the terminal and to NAME.out in the output directory."""
    def __init__(self,path,stream):
        self.f=open(path,'w'); self.stream=stream
    def write(self,s):
        self.stream.write(s); self.f.write(s)
    def flush(self):
        self.stream.flush(); self.f.flush()

def options(name,doc,quick=True,extra=None):
    """Parse the command line (--quick, --out DIR, and whatever extra adds); make the output
    directory; copy stdout into DIR/NAME.out (NAME may be a function of the parsed options).
    Returns the parsed options."""
    ap=argparse.ArgumentParser(description=doc)
    if quick:
        ap.add_argument('--quick',action='store_true',help='a small subset through the same code paths (CI)')
    ap.add_argument('--out',default='.',help='directory for the outputs (default: the current directory)')
    if extra: extra(ap)
    a=ap.parse_args()
    os.makedirs(a.out,exist_ok=True)
    if callable(name): name=name(a)
    sys.stdout=_Tee(os.path.join(a.out,name+'.out'),sys.stdout)
    return a
