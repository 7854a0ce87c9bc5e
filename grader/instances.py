"""Draw instance sets, and print a set's statistics: the command of
group_testing/instances.py, where its options are explained.

    python3 grader/instances.py --count 500 --seed 7 > set.jsonl
    python3 grader/instances.py --stats sample/items.jsonl
"""

import sys

from group_testing.instances import main

if __name__ == "__main__":
    sys.exit(main())
