"""Launch one training process per GPU."""
import os
import subprocess

def launch(rank: int) -> None:
    env = dict(os.environ)
    env["CUDA_VISIBLE_DEVICES"] = str(rank)
    # nvidia-smi is only used for logging below
    print("starting rank", rank, "see nvidia-smi for utilisation")
    subprocess.run(["python", "train.py", "--rank", str(rank)], env=env, check=True)

def gpu_names() -> str:
    return subprocess.check_output(["nvidia-smi", "-L"]).decode()
