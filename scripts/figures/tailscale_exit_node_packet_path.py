"""Packet path and ports of an Android client using an Ubuntu 24.04 VPS as a Tailscale exit node.

Post: series/posts/tailscale-exit-node.md. A diagram, not a chart: boxes for the hops, arrows for the
three flows the post discusses (data over a direct WireGuard path, the DERP fallback, DNS through the
exit node). The port 23917 is the example custom port used in the post (示例), 41641 the default;
the interface name eth0 is an example too ($NETDEV: the post, §二, shows how to find it).
"""
from __future__ import annotations

from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from _figstyle import LINE, PALETTE, TEXT, plt, save


def box(ax, x, y, w, h, title, lines, color):
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.02,rounding_size=0.12",
                                facecolor=PALETTE[color]["fill"], edgecolor=PALETTE[color]["stroke"], linewidth=1.4))
    ax.text(x + w / 2, y + h - 0.22, title, ha="center", va="top", fontsize=10.5, color=TEXT, weight="bold")
    for i, line in enumerate(lines):
        ax.text(x + w / 2, y + h - 0.75 - i * 0.5, line, ha="center", va="top", fontsize=9, color=TEXT)


def arrow(ax, start, end, color, label, style="-|>", ls="-", label_xy=None, rad=0.0):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle=style, mutation_scale=13, linewidth=1.6,
                                 color=PALETTE[color]["stroke"], linestyle=ls,
                                 connectionstyle=f"arc3,rad={rad}"))
    if label:
        lx, ly = label_xy or ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2 + 0.12)
        ax.text(lx, ly, label, ha="center", va="bottom", fontsize=8.3, color=TEXT,
                bbox=dict(boxstyle="round,pad=0.2", facecolor="#FFFFFF", edgecolor="none"))


def main() -> None:
    fig, ax = plt.subplots(figsize=(11.5, 6.2))
    ax.set_xlim(0, 23)
    ax.set_ylim(0, 12.4)
    ax.axis("off")
    ax.grid(False)

    box(ax, 0.3, 6.4, 4.6, 3.6, "Android 手机", ["Tailscale App（VpnService）", "默认路由 → exit node", "DNS → 100.100.100.100", "运营商 CGNAT 之后"], "blue")
    box(ax, 6.6, 6.4, 3.6, 3.6, "云安全组", ["入站放行", "UDP 23917（示例）", "SSH 22/TCP"], "yellow")
    box(ax, 11.9, 4.0, 6.0, 8.0, "Ubuntu 24.04 VPS（exit node）", [
        "ufw allow 23917/udp",
        "tailscaled --port 23917",
        "tailscale0 ←→ 内核转发",
        "ip_forward=1（v4/v6）",
        "ts-forward 放行 + MASQUERADE",
        "ethtool -K $NETDEV（如 eth0）",
        "  rx-udp-gro-forwarding on",
        "  rx-gro-list off",
        "DNS 代理 → resolv.conf 首个 NS",
    ], "green")
    box(ax, 19.4, 8.0, 3.3, 2.6, "公网 / YouTube", ["源 IP = VPS 公网 IP", "QUIC/HTTPS"], "pink")
    box(ax, 19.4, 4.3, 3.3, 2.6, "上游 DNS", ["systemd-resolved", "→ 云厂商或自设 DNS"], "pink")
    box(ax, 6.6, 1.0, 3.6, 2.6, "DERP 中继", ["TCP 443（兜底）", "直连失败才走"], "yellow")

    # Direct WireGuard path.
    arrow(ax, (4.9, 8.9), (6.6, 8.9), "blue", "WireGuard/UDP", label_xy=(5.75, 9.1))
    arrow(ax, (10.2, 8.9), (11.9, 8.9), "blue", "→ VPS:23917", label_xy=(11.05, 9.1))
    # Exit to the internet, and back.
    arrow(ax, (17.9, 9.6), (19.4, 9.6), "pink", "SNAT 出网", label_xy=(18.65, 9.8))
    arrow(ax, (19.4, 8.5), (17.9, 8.5), "green", "回程 UDP：GRO 聚合", label_xy=(18.65, 7.75))
    # DNS through the tunnel.
    arrow(ax, (4.9, 7.0), (11.9, 6.2), "blue", "DNS：peerAPI DoH（在隧道内）", ls="--", label_xy=(8.4, 6.9))
    arrow(ax, (17.9, 5.6), (19.4, 5.6), "pink", "UDP/TCP 53", label_xy=(18.65, 5.8))
    # DERP fallback.
    arrow(ax, (2.6, 6.4), (6.6, 2.3), "yellow", "直连打不通时", ls=":", label_xy=(3.7, 3.9), rad=0.15)
    arrow(ax, (10.2, 2.3), (11.9, 5.0), "yellow", "", ls=":", rad=-0.15)

    ax.text(11.5, 0.35, "实线：数据直连路径；虚线：DNS；点线：DERP 兜底。端口 23917（默认 41641）与网卡名 eth0 为示例值。",
            ha="center", va="bottom", fontsize=9, color=LINE)
    save(fig, "posts/assets/tailscale-exit-node-packet-path.svg")


if __name__ == "__main__":
    main()
