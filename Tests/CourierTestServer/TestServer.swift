import NIOCore
import NIOPosix
import NIOHTTP1
